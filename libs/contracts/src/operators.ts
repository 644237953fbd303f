/**
 * Operator configuration (docs/configuration.md: `OPERATORS_JSON` / `OPERATORS_FILE`). Parsed once at
 * start-up; every message names the offending key (`operators[1].timeZone: …`) because the
 * platform prints it and stops.
 */
import { tryParseAmount } from '@reelstream/money';
import * as z from 'zod';
import { currencyUnits } from './api/bonus-call.js';
import { formatIssuePath } from './api/errors.js';
import { ReelstreamError } from '@reelstream/errors';
import { allDistinct, currencyCode, httpUrl, operatorId } from './shared/primitives.js';
import { sha256HexOf } from './shared/sha256.js';
import { isValidTimeZone } from './time.js';

/** Shortest bearer token and signing secret accepted: guessable secrets are configuration errors. */
const MIN_SECRET_LENGTH = 16;

const secret = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .min(MIN_SECRET_LENGTH, { error: `${what} must be at least ${MIN_SECRET_LENGTH} characters` })
    .max(512)
    .refine((value) => value.trim() === value, { error: `${what} must not start or end with white space` });

/** An origin exactly as `new URL(…).origin` writes it: scheme, host, optional port; no path. */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * The most one registration may ask for, in units of one currency. A limit is kept
 * per currency because a number means nothing without it (10,000 EUR is not 10,000 KRW); a
 * currency or key without a configured limit gets the catalog-derived default of the domain.
 */
const currencyLimits = z.strictObject({
  maxCallAmount: currencyUnits.optional(),
  maxBaseBetAmount: currencyUnits.optional(),
});

const CALLBACK_ID_ENCODINGS = ['string', 'number'] as const;
export type CallbackIdEncoding = (typeof CALLBACK_ID_ENCODINGS)[number];

/**
 * What X-Request-Signature covers: `body` = the raw body bytes (D8); `timestamp.body` = the
 * X-Request-Timestamp value, a `.`, then the body bytes, so a wallet can refuse stale replays.
 */
const SIGNATURE_SCHEMES = ['body', 'timestamp.body'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/**
 * The two forms of the configuration (docs/decisions.md, "Signature scheme by configuration
 * version"): a bare array is version 1, written before `timestamp.body` was the default, and an
 * operator there that names no `signatureScheme` keeps `body`; `{"version": 2, "operators": […]}`
 * gives such an operator `timestamp.body`. An operator that names its scheme has it in either form.
 */
const OPERATORS_CONFIG_VERSION = 2;
type OperatorsConfigVersion = 1 | typeof OPERATORS_CONFIG_VERSION;
const DEFAULT_SIGNATURE_SCHEME: Record<OperatorsConfigVersion, SignatureScheme> = { 1: 'body', 2: 'timestamp.body' };
/** The automatic re-drive of an operator's dead-lettered wins when its config says nothing: every 5 minutes for 24 hours. */
export const WIN_REDRIVE_DEFAULTS = { everySeconds: 300, forSeconds: 86_400 } as const;
export type WinRedriveSchedule = { readonly everySeconds: number; readonly forSeconds: number };

const operatorInput = z
  .strictObject({
    id: operatorId,
    name: z.string().trim().min(1, { error: 'name must not be empty' }).max(100),
    apiToken: secret('apiToken').optional(),
    apiTokenSha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, { error: 'apiTokenSha256 must be the SHA-256 of the token as 64 hex characters' })
      .transform((digest) => digest.toLowerCase())
      .optional(),
    callbackUrl: httpUrl,
    /** Where this operator's bonus webhooks go (docs/operator-guide.md); none are sent without it. */
    webhookUrl: httpUrl.optional(),
    signingSecret: z.union([secret('signingSecret'), z.array(secret('signingSecret')).min(1).max(2)], {
      error: 'signingSecret must be a string or an array of 1–2 strings (the current secret first)',
    }),
    currency: currencyCode,
    currencies: z.array(currencyCode).min(1, { error: 'currencies must name at least one currency' }).optional(),
    limits: z.record(z.string(), currencyLimits).default({}),
    timeZone: z
      .string()
      .refine((zone) => isValidTimeZone(zone), {
        error: (issue) => `${JSON.stringify(issue.input)} is not an IANA time zone such as Asia/Seoul or UTC`,
      })
      .default('UTC'),
    allowedReturnOrigins: z
      .array(
        z.string().refine((origin) => isOrigin(origin), {
          error: (issue) =>
            `${JSON.stringify(issue.input)} is not an origin such as https://casino.example (no path, no trailing slash)`,
        }),
      )
      .default([]),
    callbackIdEncoding: z
      .enum(CALLBACK_ID_ENCODINGS, { error: 'callbackIdEncoding must be "string" or "number"' })
      .default('string'),
    /** Left out: the configuration version's default (DEFAULT_SIGNATURE_SCHEME). */
    signatureScheme: z
      .enum(SIGNATURE_SCHEMES, { error: 'signatureScheme must be "body" or "timestamp.body"' })
      .optional(),
    /**
     * Lets callbackUrl and webhookUrl name a loopback or private address (a wallet inside the
     * operator's own network), which production mode otherwise refuses (docs/configuration.md).
     */
    allowPrivateAddresses: z.boolean({ error: 'allowPrivateAddresses must be true or false' }).default(false),
    features: z
      .strictObject({
        regularBonusCall: z.boolean().default(false),
        /** Launches with isStreamer: true (the streamer RTP profile, out of the agent report); refused without it. */
        streamers: z.boolean().default(false),
      })
      .default({ regularBonusCall: false, streamers: false }),
    /** This operator's API token bucket; a key left out takes the gateway's RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST. */
    rateLimit: z
      .strictObject({
        perSecond: z
          .number({ error: 'rateLimit.perSecond must be a number of requests per second' })
          .positive({ error: 'rateLimit.perSecond must be above 0' })
          .max(1_000_000)
          .optional(),
        burst: z
          .number({ error: 'rateLimit.burst must be a whole number of requests' })
          .int({ error: 'rateLimit.burst must be a whole number of requests' })
          .min(1, { error: 'rateLimit.burst must be at least 1' })
          .max(1_000_000)
          .optional(),
      })
      .optional(),
    /**
     * When a dead-lettered win is re-driven without a person (docs/adr/0016-scheduled-win-redrive.md):
     * every `everySeconds` after its dead letter, until `forSeconds` after the first one; then it stays
     * dead-lettered and alerts. `forSeconds: 0` turns the schedule off (manual re-drive only).
     */
    winRedrive: z
      .strictObject({
        everySeconds: z
          .number({ error: 'winRedrive.everySeconds must be a whole number of seconds' })
          .int({ error: 'winRedrive.everySeconds must be a whole number of seconds' })
          .min(1, { error: 'winRedrive.everySeconds must be at least 1' })
          .max(86_400, { error: 'winRedrive.everySeconds must be at most 86400 (a day)' })
          .default(WIN_REDRIVE_DEFAULTS.everySeconds),
        forSeconds: z
          .number({ error: 'winRedrive.forSeconds must be a whole number of seconds' })
          .int({ error: 'winRedrive.forSeconds must be a whole number of seconds' })
          .min(0, { error: 'winRedrive.forSeconds must be 0 (off) or more' })
          .max(30 * 86_400, { error: 'winRedrive.forSeconds must be at most 2592000 (30 days)' })
          .default(WIN_REDRIVE_DEFAULTS.forSeconds),
      })
      .optional(),
  })
  .superRefine((operator, ctx) => {
    if ((operator.apiToken === undefined) === (operator.apiTokenSha256 === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['apiToken'], message: 'give exactly one of apiToken and apiTokenSha256' });
    }
    if (Array.isArray(operator.signingSecret) && !allDistinct(operator.signingSecret)) {
      ctx.addIssue({ code: 'custom', path: ['signingSecret'], message: 'the two signing secrets must differ' });
    }
    checkCurrencyTerms(operator, ctx);
  });

/** D6 amended: the default currency is one of the allowed ones, and every limit is for an allowed currency, in its decimals. */
function checkCurrencyTerms(
  operator: {
    currency: string;
    currencies?: string[] | undefined;
    limits: Record<string, z.infer<typeof currencyLimits>>;
  },
  ctx: z.RefinementCtx,
): void {
  const allowed = operator.currencies ?? [operator.currency];
  if (!allowed.includes(operator.currency))
    ctx.addIssue({
      code: 'custom',
      path: ['currencies'],
      message: `currencies must include the default currency ${operator.currency}`,
    });
  if (!allDistinct(allowed))
    ctx.addIssue({ code: 'custom', path: ['currencies'], message: 'currencies must not repeat a currency' });
  for (const [currency, limits] of Object.entries(operator.limits)) {
    if (!allowed.includes(currency)) {
      ctx.addIssue({
        code: 'custom',
        path: ['limits', currency],
        message: `limits are for an allowed currency (${allowed.join(', ')}), not ${JSON.stringify(currency)}`,
      });
      continue;
    }
    for (const [key, value] of Object.entries(limits)) {
      const parsed = value === undefined ? undefined : tryParseAmount(value, currency);
      if (parsed && !parsed.ok)
        ctx.addIssue({ code: 'custom', path: ['limits', currency, key], message: parsed.error.message });
    }
  }
}

/**
 * One operator after parsing. The token is kept only as its SHA-256 (the gateway hashes the
 * bearer token and looks it up); `signingSecrets[0]` signs callbacks, and during a rotation
 * (D8) the sandbox accepts either. `defaultScheme` is the configuration version's.
 */
const operatorConfigWith = (defaultScheme: SignatureScheme) =>
  operatorInput.transform((operator) => ({
    id: operator.id,
    name: operator.name,
    apiTokenSha256: operator.apiTokenSha256 ?? sha256HexOf(operator.apiToken as string),
    callbackUrl: operator.callbackUrl,
    ...(operator.webhookUrl === undefined ? {} : { webhookUrl: operator.webhookUrl }),
    signingSecrets: typeof operator.signingSecret === 'string' ? [operator.signingSecret] : [...operator.signingSecret],
    currency: operator.currency,
    /** D6 amended: the currencies a bonus call of this operator may be denominated in; the default one first. */
    currencies: operator.currencies ?? [operator.currency],
    limits: operator.limits,
    timeZone: operator.timeZone,
    allowedReturnOrigins: operator.allowedReturnOrigins,
    callbackIdEncoding: operator.callbackIdEncoding,
    signatureScheme: operator.signatureScheme ?? defaultScheme,
    ...(operator.allowPrivateAddresses ? { allowPrivateAddresses: true } : {}),
    features: operator.features,
    ...(operator.rateLimit === undefined ? {} : { rateLimit: stripUndefined(operator.rateLimit) }),
    ...(operator.winRedrive === undefined ? {} : { winRedrive: operator.winRedrive as WinRedriveSchedule }),
  }));

function stripUndefined(limit: { perSecond?: number | undefined; burst?: number | undefined }): {
  perSecond?: number;
  burst?: number;
} {
  return {
    ...(limit.perSecond === undefined ? {} : { perSecond: limit.perSecond }),
    ...(limit.burst === undefined ? {} : { burst: limit.burst }),
  };
}
export type OperatorConfigInput = z.input<ReturnType<typeof operatorConfigWith>>;
export type OperatorConfig = z.output<ReturnType<typeof operatorConfigWith>>;

const operatorsConfigWith = (defaultScheme: SignatureScheme) =>
  z
    .array(operatorConfigWith(defaultScheme))
    .min(1, { error: 'at least one operator must be configured' })
    .superRefine((operators, ctx) => {
      const seenIds = new Map<string, number>();
      const seenTokens = new Map<string, number>();
      operators.forEach((operator, index) => {
        // Runs on partly invalid lists too (to report everything at once): only compare parsed entries.
        if (typeof operator?.apiTokenSha256 !== 'string' || typeof operator.id !== 'string') return;
        const sameId = seenIds.get(operator.id);
        if (sameId !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [index, 'id'],
            message: `duplicate id "${operator.id}" (also operators[${sameId}])`,
          });
        else seenIds.set(operator.id, index);
        const sameToken = seenTokens.get(operator.apiTokenSha256);
        if (sameToken !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'apiToken'],
            message: `the API token is the same as the one of operators[${sameToken}]; every operator needs its own`,
          });
        } else seenTokens.set(operator.apiTokenSha256, index);
      });
    });
export type OperatorsConfig = z.output<ReturnType<typeof operatorsConfigWith>>;

const versionedDocument = z.strictObject({
  version: z.literal(OPERATORS_CONFIG_VERSION, {
    error: `version must be ${OPERATORS_CONFIG_VERSION} (or write the operators as a bare array, version 1)`,
  }),
  operators: z.unknown(),
});

export class OperatorsConfigError extends ReelstreamError {
  override readonly name = 'OperatorsConfigError';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(
      'CONFIGURATION_INVALID',
      `invalid operator configuration in ${source}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      { retriable: false },
    );
  }
}

/** `operators[1].timeZone: "Mars/Base" is not an IANA time zone …`, one line per problem. */
function describeOperatorsConfigIssues(error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => {
    const path = (keys: readonly PropertyKey[]) => `operators${formatIssuePath(keys).replace(/^(?!\[|$)/, '.')}`;
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => `${path([...issue.path, key])}: unknown key "${key}"`);
    return [`${path(issue.path)}: ${issue.message}`];
  });
}

/** A parsed configuration with its version and its operators as written (for production mode's checks). */
export interface OperatorsDocument {
  version: OperatorsConfigVersion;
  operators: OperatorsConfig;
  /** The operators' entries as decoded, before defaults: whether a key was written at all. */
  written: readonly Record<string, unknown>[];
}

/**
 * Parses a configuration (already decoded JSON) in either form: a bare array of operators
 * (version 1) or `{"version": 2, "operators": […]}`. Throws `OperatorsConfigError` naming each bad key.
 */
function parseOperatorsDocument(value: unknown, source = 'OPERATORS_JSON'): OperatorsDocument {
  let version: OperatorsConfigVersion = 1;
  let list = value;
  if (!Array.isArray(value)) {
    const document = versionedDocument.safeParse(value);
    if (!document.success)
      throw new OperatorsConfigError(source, [
        `operators: expected an array of operators, or {"version": ${OPERATORS_CONFIG_VERSION}, "operators": […]}${
          typeof value === 'object' && value !== null && 'version' in value
            ? ` (${document.error.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join('; ')})`
            : ''
        }`,
      ]);
    version = document.data.version;
    list = document.data.operators;
  }
  const result = operatorsConfigWith(DEFAULT_SIGNATURE_SCHEME[version]).safeParse(list);
  if (!result.success) throw new OperatorsConfigError(source, describeOperatorsConfigIssues(result.error));
  return { version, operators: result.data, written: list as Record<string, unknown>[] };
}

/** The operators of a configuration in either form (`parseOperatorsDocument`). */
export function parseOperatorsConfig(value: unknown, source = 'OPERATORS_JSON'): OperatorsConfig {
  return parseOperatorsDocument(value, source).operators;
}

/** As `parseOperatorsDocument`, from the text of `OPERATORS_JSON` or of the `OPERATORS_FILE`. */
export function parseOperatorsDocumentJson(text: string, source = 'OPERATORS_JSON'): OperatorsDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new OperatorsConfigError(source, [`not valid JSON: ${(error as Error).message}`]);
  }
  return parseOperatorsDocument(value, source);
}

/** As `parseOperatorsConfig`, from the text of `OPERATORS_JSON` or of the `OPERATORS_FILE`. */
export function parseOperatorsJson(text: string, source = 'OPERATORS_JSON'): OperatorsConfig {
  return parseOperatorsDocumentJson(text, source).operators;
}

/** The SHA-256 an operator puts in `apiTokenSha256` for a token (also what the gateway compares). */
export const apiTokenDigest = sha256HexOf;
