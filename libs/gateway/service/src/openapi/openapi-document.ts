/**
 * The OpenAPI 3.1 document of API v1, generated from the contracts (`ApiOperations`, their zod
 * schemas and wire examples, the error catalogue): there is no second, hand-written copy to
 * drift. Served at /openapi.json and rendered at /docs.
 */
import {
  apiSchemaMeta,
  ApiOperations,
  defaultMessageOf,
  errorEnvelope,
  failure,
  HttpHeaders,
  httpStatusOf,
  type ApiOperation,
  type ErrorCode,
} from '@reelstream/contracts';
import type * as z from 'zod';
import { ComponentSchemas, componentRef, type JsonSchema } from './json-schema.js';
import { walletWebhooks } from './webhooks.js';

interface OpenApiDocument {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, unknown>>;
  /** What reelstream sends to the operator: the wallet callbacks. */
  webhooks: Record<string, unknown>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, unknown>;
    headers: Record<string, unknown>;
  };
}

export interface GeneratedOpenApi {
  document: OpenApiDocument;
  /** Each named component's zod schema (tests parse the examples with it). */
  zodById: ReadonlyMap<string, z.ZodType>;
  /** Each JSON Schema `examples` in the document with the zod schema it documents. */
  documentedExamples: readonly { path: string; schema: z.ZodType; examples: readonly unknown[] }[];
}

export type OperationName = keyof typeof ApiOperations;

/** Answered by any /v1 operation. */
const COMMON_ERRORS: readonly ErrorCode[] = ['UNAUTHORIZED', 'RATE_LIMITED', 'INTERNAL'];
/** Answered by the writes, which carry a JSON body. */
const BODY_ERRORS: readonly ErrorCode[] = ['MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'];
/** Operations answered by the bonus-ledger over the bus: its silence is a 503 SERVICE_UNAVAILABLE. */
const LEDGER_OPERATIONS: ReadonlySet<OperationName> = new Set([
  'registerBonusCall',
  'cancelBonusCall',
  'getBonusCall',
  'listBonusCalls',
]);
/** Operations that wait for the wallet-dispatcher's answer over the bus. */
const DISPATCHER_OPERATIONS: ReadonlySet<OperationName> = new Set(['redriveDeadLetter']);

const TAGS: Record<OperationName, string> = {
  registerBonusCall: 'Bonus calls',
  cancelBonusCall: 'Bonus calls',
  getBonusCall: 'Bonus calls',
  listBonusCalls: 'Bonus calls',
  launchGame: 'Game launch',
  startCampaign: 'Campaigns',
  getCampaign: 'Campaigns',
  listProviders: 'Catalog',
  listGames: 'Catalog',
  getRound: 'Reconciliation',
  listTransactions: 'Reconciliation',
  listDeadLetters: 'Reconciliation',
  redriveDeadLetter: 'Reconciliation',
  listWebhookDeadLetters: 'Reconciliation',
  redriveWebhookDeadLetter: 'Reconciliation',
  getWalletHealth: 'Reconciliation',
};

const DESCRIPTION = [
  'The operator API of reelstream: register and cancel free-spin bonus calls, read their status, launch games, list providers and games; reconcile rounds and wallet transactions, re-drive dead-lettered wins and bonus webhooks, read your wallet’s health.',
  '',
  'Your staff can do all of it in a browser too: the **[operator console](/console/)** of this gateway, a back office that signs in with your API token and calls only this API.',
  '',
  'Every request carries `Authorization: Bearer <API_TOKEN>`; writes send `Content-Type: application/json`. Every answer, success or error, is the envelope `{success, message, data}`; errors add `error: {code, details}` with a stable code (see each response). ',
  'Amounts are JSON numbers in currency units: of the bonus currency for a bonus call (`currency`, or the operator default), of the session currency at launch (the operator default unless given); ids are JSON numbers. ',
  '`X-Request-Id` is echoed on every response (send your own to correlate). `429` and `503` carry `Retry-After` in seconds. ',
  'Registration is idempotent by `platformId`: resending the same body answers the same `issueId` with `Idempotent-Replayed: true`; another body with the same platformId is `409 PLATFORM_ID_CONFLICT`. A known platformId is answered so before today’s rules run (an `expireAt` now past, changed limits, currencies, features or catalogue); only a new one is checked against them. Campaigns likewise by `campaignId`.',
  '',
  'The wallet callbacks reelstream sends to the operator’s callbackUrl are described under `webhooks` (walletCallback).',
  '',
  'The operator guide (`docs/operator-guide.md` in the reelstream repository) walks through the whole contract; where the operator specification leaves a choice open, `docs/decisions.md` records the choice and why.',
].join('\n');

export function generateOpenApi(options: { version?: string; serverUrl?: string } = {}): GeneratedOpenApi {
  const components = new ComponentSchemas();
  components.add(errorEnvelope);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, operation] of Object.entries(ApiOperations) as [OperationName, ApiOperation][]) {
    paths[operation.path] ??= {};
    (paths[operation.path] as Record<string, unknown>)[operation.method] = operationObject(name, operation, components);
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'reelstream operator API', version: options.version ?? '1.0.0', description: DESCRIPTION },
    servers: [{ url: options.serverUrl ?? '/', description: 'This gateway' }],
    tags: [
      {
        name: 'Bonus calls',
        description: 'Register, cancel and read free-spin bonus calls.',
      },
      {
        name: 'Campaigns',
        description:
          'One bonus for up to 10,000 players in one call, registered in the background; its progress and refusals.',
      },
      { name: 'Game launch', description: 'Session-specific launch URLs for a player and a game.' },
      {
        name: 'Catalog',
        description: 'The providers and games to launch and to give bonuses on, with RTP, languages and bet levels.',
      },
      {
        name: 'Reconciliation',
        description:
          'Rounds and wallet transactions with their delivery status and attempts; dead-lettered wins and their re-drive; your wallet’s health.',
      },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    webhooks: walletWebhooks(components),
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The API token issued to the operator.' },
      },
      headers: {
        RequestId: {
          description:
            'The request id: yours when you sent a valid one (1–128 of A–Z a–z 0–9 _ . : -), else generated.',
          schema: { type: 'string' },
        },
        RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
        IdempotentReplayed: {
          description:
            '`true` when the registration (or campaign) was already made with this platformId (campaignId) and body; answered so even if the body would be refused today (an expireAt now past, a changed configuration).',
          schema: { type: 'string', enum: ['true'] },
        },
      },
    },
  };
  return { document, zodById: components.zodById, documentedExamples: components.documentedExamples };
}

function operationObject(
  name: OperationName,
  operation: ApiOperation,
  components: ComponentSchemas,
): Record<string, unknown> {
  const parameters = [
    ...(operation.params ? parametersOf(operation.params, 'path', components) : []),
    ...(operation.query ? parametersOf(operation.query, 'query', components) : []),
    {
      name: HttpHeaders.requestId,
      in: 'header',
      required: false,
      description: 'Your id for this request, echoed back and used to correlate logs and events.',
      schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$' },
    },
  ];
  const result: Record<string, unknown> = {
    operationId: name,
    summary: operation.summary,
    tags: [TAGS[name]],
    parameters,
  };
  if (operation.body) {
    const meta = apiSchemaMeta(operation.body);
    result['description'] = meta.description;
    result['requestBody'] = {
      required: true,
      content: {
        'application/json': { schema: components.add(operation.body), examples: namedExamples(meta.examples) },
      },
    };
  }
  const responseMeta = apiSchemaMeta(operation.response);
  const successHeaders: Record<string, unknown> = {
    [HttpHeaders.requestId]: { $ref: '#/components/headers/RequestId' },
  };
  if (name === 'registerBonusCall' || name === 'startCampaign')
    successHeaders[HttpHeaders.idempotentReplayed] = { $ref: '#/components/headers/IdempotentReplayed' };
  const responses: Record<string, unknown> = {
    [String(operation.successStatus ?? 200)]: {
      description: responseMeta.description,
      headers: successHeaders,
      content: {
        'application/json': {
          schema: components.add(operation.response),
          examples: namedExamples(responseMeta.examples),
        },
      },
    },
  };
  for (const [status, codes] of errorsByStatus(name, operation)) responses[String(status)] = errorResponse(codes);
  result['responses'] = responses;
  return result;
}

/** Each property of a query or path schema as one parameter, with the schema's examples spread over them. */
function parametersOf(
  schema: z.ZodType,
  location: 'query' | 'path',
  components: ComponentSchemas,
): Record<string, unknown>[] {
  const objectSchema = components.resolve(components.add(schema));
  const properties = (objectSchema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((objectSchema['required'] ?? []) as string[]);
  const examples = apiSchemaMeta(schema).examples as Record<string, unknown>[];
  return Object.entries(properties).map(([name, property]) => {
    const { description, examples: _inline, ...propertySchema } = property;
    const values = [...new Set(examples.flatMap((example) => (example[name] === undefined ? [] : [example[name]])))];
    const parameter: Record<string, unknown> = {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      schema: propertySchema,
    };
    if (typeof description === 'string') parameter['description'] = description;
    if (values.length > 0) parameter['examples'] = namedExamples(values);
    return parameter;
  });
}

function namedExamples(values: readonly unknown[]): Record<string, { value: unknown }> {
  return Object.fromEntries(values.map((value, index) => [`example${index + 1}`, { value }]));
}

export function errorCodesOf(name: OperationName, operation: ApiOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>(COMMON_ERRORS);
  if (operation.body || operation.query || operation.params) codes.add('VALIDATION_FAILED');
  if (operation.body) for (const code of BODY_ERRORS) codes.add(code);
  if (LEDGER_OPERATIONS.has(name) || DISPATCHER_OPERATIONS.has(name)) codes.add('SERVICE_UNAVAILABLE');
  for (const code of operation.errors) codes.add(code as ErrorCode);
  return [...codes];
}

function errorsByStatus(name: OperationName, operation: ApiOperation): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(name, operation)) {
    const status = httpStatusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function errorResponse(codes: readonly ErrorCode[]): Record<string, unknown> {
  const headers: Record<string, unknown> = { [HttpHeaders.requestId]: { $ref: '#/components/headers/RequestId' } };
  if (codes.some((code) => httpStatusOf(code) === 429 || httpStatusOf(code) === 503))
    headers[HttpHeaders.retryAfter] = { $ref: '#/components/headers/RetryAfter' };
  return {
    description: codes.map((code) => `\`${code}\`: ${defaultMessageOf(code)}`).join('\n\n'),
    headers,
    content: {
      'application/json': {
        schema: componentRef('ErrorEnvelope'),
        examples: Object.fromEntries(
          codes.map((code) => [code, { summary: defaultMessageOf(code), value: errorExample(code) }]),
        ),
      },
    },
  };
}

function errorExample(code: ErrorCode): unknown {
  if (code === 'VALIDATION_FAILED')
    return failure(code, undefined, [
      { path: 'playerId', message: 'playerId must be 1–50 characters of A–Z, a–z, 0–9 or _' },
    ]);
  if (code === 'AMOUNT_PRECISION')
    return failure(code, undefined, [
      { path: 'callAmount', message: 'amount 10.005 has more than 2 decimal place(s) allowed for EUR' },
    ]);
  return failure(code);
}
