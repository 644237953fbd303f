/**
 * Every request and response schema of API v1 by operation, for the gateway's routes and its
 * OpenAPI 3.1 document (`z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' })`).
 *
 * Each schema carries `.meta({id, description, examples})`. The examples are wire examples:
 * request bodies and query objects as an operator sends them, responses as it receives them.
 * zod's input-mode JSON Schema drops `examples` from schemas that transform (it reads them as
 * outputs), so the gateway takes them from `apiSchemaMeta` and puts them on the OpenAPI media
 * type / parameter, where OpenAPI expects request examples anyway.
 */
import * as z from 'zod';
import {
  bonusCallPathParams,
  cancelBonusCallRequest,
  cancelBonusCallResponse,
  registerBonusCallRequest,
  registerBonusCallResponse,
} from './bonus-call.js';
import {
  campaignPathParams,
  campaignProgressQuery,
  campaignProgressResponse,
  startCampaignRequest,
  startCampaignResponse,
} from './campaigns.js';
import { getBonusCallResponse, listBonusCallsQueryParams, listBonusCallsResponse } from './bonus-status.js';
import { listGamesQueryParams, listGamesResponse, listProvidersResponse } from './catalog.js';
import { errorEnvelope } from './envelope.js';
import { launchGameRequest, launchGameResponse } from './launch.js';
import {
  getRoundResponse,
  listDeadLettersQueryParams,
  listDeadLettersResponse,
  listTransactionsQueryParams,
  listTransactionsResponse,
  redrivePathParams,
  redriveResponse,
  roundPathParams,
} from './reconciliation.js';
import { walletHealthResponse } from './wallet-health.js';
import { listWebhookDeadLettersResponse, webhookRedrivePathParams, webhookRedriveResponse } from './webhook-letters.js';

export interface ApiOperation {
  readonly method: 'get' | 'post';
  readonly path: string;
  readonly summary: string;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  readonly params?: z.ZodType;
  readonly response: z.ZodType;
  /** The status of a success when it is not 200 (202: accepted, done in the background). */
  readonly successStatus?: 202;
  /** Error codes the operation may answer besides the common ones (auth, validation, rate, availability). */
  readonly errors: readonly string[];
}

/** A bonus names a type the operator may use and a game of that provider that supports it: registered alone or in a campaign. */
const BONUS_GAME_REFUSALS = [
  'BONUS_TYPE_UNAVAILABLE',
  'PROVIDER_NOT_FOUND',
  'GAME_NOT_FOUND',
  'GAME_NOT_OF_PROVIDER',
  'FREE_SPINS_NOT_SUPPORTED',
  'REGULAR_BONUS_NOT_SUPPORTED',
] as const;

export const ApiOperations = {
  registerBonusCall: {
    method: 'post',
    path: '/v1/bonus-call/register',
    summary: 'Register a bonus call for a player',
    body: registerBonusCallRequest,
    response: registerBonusCallResponse,
    errors: [
      'AMOUNT_PRECISION',
      'CURRENCY_NOT_ALLOWED',
      'PLATFORM_ID_CONFLICT',
      'ACTIVE_BONUS_EXISTS',
      ...BONUS_GAME_REFUSALS,
      'BET_LEVEL_NOT_AVAILABLE',
      'CALL_AMOUNT_LIMIT_EXCEEDED',
      'BASE_BET_LIMIT_EXCEEDED',
      'EXPIRE_AT_IN_PAST',
      'EXPIRE_AT_NOT_IN_ZONE',
    ],
  },
  cancelBonusCall: {
    method: 'post',
    path: '/v1/bonus-call/cancel',
    summary: 'Cancel a bonus call in progress',
    body: cancelBonusCallRequest,
    response: cancelBonusCallResponse,
    errors: ['BONUS_NOT_FOUND', 'BONUS_ALREADY_COMPLETED', 'BONUS_EXPIRED'],
  },
  getBonusCall: {
    method: 'get',
    path: '/v1/bonus-call/{issueId}',
    summary: 'Read one bonus call',
    params: bonusCallPathParams,
    response: getBonusCallResponse,
    errors: ['BONUS_NOT_FOUND'],
  },
  listBonusCalls: {
    method: 'get',
    path: '/v1/bonus-call',
    summary: 'List bonus calls',
    query: listBonusCallsQueryParams,
    response: listBonusCallsResponse,
    errors: [],
  },
  launchGame: {
    method: 'post',
    path: '/v1/game/launch',
    summary: 'Create a game launch URL',
    body: launchGameRequest,
    response: launchGameResponse,
    errors: [
      'STREAMER_NOT_ALLOWED',
      'PROVIDER_NOT_FOUND',
      'GAME_NOT_FOUND',
      'GAME_NOT_OF_PROVIDER',
      'RETURN_URL_NOT_ALLOWED',
    ],
  },
  startCampaign: {
    method: 'post',
    path: '/v1/bonus-call/campaigns',
    summary: 'Register one bonus for many players (a campaign)',
    body: startCampaignRequest,
    response: startCampaignResponse,
    successStatus: 202,
    errors: [
      'AMOUNT_PRECISION',
      'CURRENCY_NOT_ALLOWED',
      'CAMPAIGN_ID_CONFLICT',
      ...BONUS_GAME_REFUSALS,
      'EXPIRE_AT_IN_PAST',
      'EXPIRE_AT_NOT_IN_ZONE',
      'BET_LEVEL_NOT_AVAILABLE',
      'BASE_BET_LIMIT_EXCEEDED',
      'CALL_AMOUNT_LIMIT_EXCEEDED',
    ],
  },
  getCampaign: {
    method: 'get',
    path: '/v1/bonus-call/campaigns/{campaignId}',
    summary: "Read a campaign's progress and refusals",
    params: campaignPathParams,
    query: campaignProgressQuery,
    response: campaignProgressResponse,
    errors: ['CAMPAIGN_NOT_FOUND'],
  },
  listProviders: {
    method: 'get',
    path: '/v1/providers',
    summary: 'List game providers',
    response: listProvidersResponse,
    errors: [],
  },
  listGames: {
    method: 'get',
    path: '/v1/games',
    summary: 'List games',
    query: listGamesQueryParams,
    response: listGamesResponse,
    errors: [],
  },
  getRound: {
    method: 'get',
    path: '/v1/rounds/{roundId}',
    summary: 'Read a round with its wallet transactions',
    params: roundPathParams,
    response: getRoundResponse,
    errors: ['ROUND_NOT_FOUND'],
  },
  listTransactions: {
    method: 'get',
    path: '/v1/transactions',
    summary: 'List wallet transactions',
    query: listTransactionsQueryParams,
    response: listTransactionsResponse,
    errors: ['CURSOR_INVALID'],
  },
  listDeadLetters: {
    method: 'get',
    path: '/v1/wallet/dead-letters',
    summary: 'List dead-lettered wins',
    query: listDeadLettersQueryParams,
    response: listDeadLettersResponse,
    errors: ['CURSOR_INVALID'],
  },
  redriveDeadLetter: {
    method: 'post',
    path: '/v1/wallet/dead-letters/{transactionId}/redrive',
    summary: 'Send a dead-lettered win again',
    params: redrivePathParams,
    response: redriveResponse,
    errors: ['TRANSACTION_NOT_FOUND', 'NOT_DEAD_LETTERED'],
  },
  listWebhookDeadLetters: {
    method: 'get',
    path: '/v1/webhooks/dead-letters',
    summary: 'List dead-lettered bonus webhooks',
    query: listDeadLettersQueryParams,
    response: listWebhookDeadLettersResponse,
    errors: ['CURSOR_INVALID'],
  },
  redriveWebhookDeadLetter: {
    method: 'post',
    path: '/v1/webhooks/dead-letters/{eventId}/redrive',
    summary: 'Send a dead-lettered bonus webhook again',
    params: webhookRedrivePathParams,
    response: webhookRedriveResponse,
    errors: ['WEBHOOK_NOT_FOUND'],
  },
  getWalletHealth: {
    method: 'get',
    path: '/v1/wallet/health',
    summary: 'How your wallet answered the callbacks of the last hour and day',
    response: walletHealthResponse,
    errors: [],
  },
} as const satisfies Record<string, ApiOperation>;

/** Every named API schema (each has `.meta({id, description, examples})`). */
export const ApiSchemas: readonly z.ZodType[] = [
  // Once each: the dead-letter lists share their query.
  ...new Set(
    Object.values(ApiOperations).flatMap((operation: ApiOperation) =>
      [operation.body, operation.query, operation.params, operation.response].filter((schema) => schema !== undefined),
    ),
  ),
  errorEnvelope,
];

export interface ApiSchemaMeta {
  id: string;
  description: string;
  examples: readonly unknown[];
}

/** The id, description and wire examples of an API schema. */
export function apiSchemaMeta(schema: z.ZodType): ApiSchemaMeta {
  const meta = z.globalRegistry.get(schema);
  if (typeof meta?.id !== 'string' || typeof meta.description !== 'string')
    throw new Error('not a named API schema (no id or description in its meta)');
  return { id: meta.id, description: meta.description, examples: Array.isArray(meta.examples) ? meta.examples : [] };
}
