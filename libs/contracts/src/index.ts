/**
 * @reelstream/contracts: zod schemas and inferred types of everything that crosses a process
 * boundary — API v1, wallet callbacks, bus commands/replies, domain events, topics, headers,
 * operator configuration. Pure: imports only zod and @reelstream/money.
 */
export {
  BonusTypes,
  type BonusType,
  MIN_SPIN_AMOUNT,
  MAX_SPIN_AMOUNT,
  SPIN_AMOUNT_RULE,
  freeSpinMetaData,
  registerBonusCallRequest,
  type RegisterBonusCallRequest,
  registerBonusCallResponse,
  cancelBonusCallResponse,
} from './api/bonus-call.js';
export {
  campaignPlatformId,
  startCampaignResponse,
  campaignProgressResponse,
  type CampaignProgress,
  type StartCampaignRequest,
} from './api/campaigns.js';
export {
  CAMPAIGN_STREAM_PREFIX,
  campaignStream,
  parseCampaignStream,
  parseCampaignEvent,
  campaignEventToAppend,
  type CampaignEvent,
  type CampaignStarted,
  type RefusedCampaignPlayer,
  type RegisteredCampaignPlayer,
} from './events/campaign.js';
export { toBonusCallStatus, getBonusCallResponse, listBonusCallsResponse } from './api/bonus-status.js';
export {
  getRoundResponse,
  listDeadLettersResponse,
  listTransactionsResponse,
  redriveResponse,
  type OperatorRound,
  type OperatorTransaction,
  type TransactionStatus,
} from './api/reconciliation.js';
export {
  listWebhookDeadLettersResponse,
  webhookRedriveResponse,
  type WebhookDeadLetterView,
} from './api/webhook-letters.js';
export {
  WALLET_HEALTH_WINDOWS,
  walletHealthResponse,
  type CommandHealth,
  type WalletHealth,
  type WalletHealthWindow,
} from './api/wallet-health.js';
export { provider, type Provider, game, type Game, listProvidersResponse, listGamesResponse } from './api/catalog.js';
export { ok, failure, errorEnvelope } from './api/envelope.js';
/** The kernel's error catalogue and error classes, unchanged. */
export * from '@reelstream/errors';
export { validationDetails } from './api/errors.js';
export { isReturnUrlAllowed, launchGameRequest, type LaunchGameRequest, launchGameResponse } from './api/launch.js';
export {
  type GameLayout,
  type PlayerBonusView,
  type PlayerRegularBonusView,
  type PlayerSession,
  spinRequest,
  type SpinRequest,
  type RoundOutcomeView,
  type SpinResult,
  type PlayerRound,
  playerSessionResponse,
  spinResponse,
  playerRoundResponse,
} from './api/player-api.js';
export { apiSchemaMeta, type ApiOperation, ApiOperations } from './api/schemas.js';
export {
  parseOperatorReplyText,
  CALLBACK_STATUS_CODES,
  callbackStatusCode,
  type CallbackStatusCode,
  operatorReply,
} from './callbacks/reply.js';
export {
  callbackRequestFor,
  encodeCallback,
  parseCallback,
  cancelCallback,
  callbackRequest,
  type BetCallback,
  type WinCallback,
  type BetwinCallback,
  type CancelCallback,
  type CallbackRequest,
  CALLBACK_COMMANDS,
} from './callbacks/requests.js';
export { type BonusCallStatusName, bonusCallRecord, type BonusCallRecord } from './commands/bonus-record.js';
export { parseBonusReply, okReply, errorReply, type BonusResult, type BonusReply } from './commands/bonus-replies.js';
export {
  bonusCommandKey,
  registerBonusCallData,
  bonusRequestMessage,
  type RegisterBonusCallData,
  type CancelBonusCallCommand,
  type GetBonusCallQuery,
  type ListBonusCallsQuery,
  type BonusRequestMessage,
  type BonusRequestType,
} from './commands/bonus.js';
export type { StartFreeSpinData, StartedFreeSpin, SettleFreeSpinData, SettledFreeSpin } from './commands/free-spin.js';
export { messageId, type CommandMetadata } from './commands/metadata.js';
export type { SteeredSpinRequest, SteeringView, SteeredChoice } from './commands/steered-spin.js';
export {
  STAKE_WINDOW_MS,
  stakeDeadlineOf,
  walletBetRequest,
  walletWinRequest,
  walletBetwinRequest,
  type WalletBetRequest,
  type WalletWinRequest,
  type WalletBetwinRequest,
  type WalletRequest,
  type WalletCommand,
  walletReply,
  type WalletReply,
  type WinDeadLetterReason,
  walletDeadLetter,
  type WalletDeadLetter,
  walletRedriveRequest,
  type WalletRedriveRequest,
  walletRequestsMessage,
  type WalletRequestsMessage,
  walletCancelDelivery,
  type WalletCancelDelivery,
  type WinSource,
} from './commands/wallet.js';
export { bonusEventMessage, type BonusEventMessage } from './events/bonus-event-message.js';
export {
  freeSpinSettledData,
  bonusCallRegistered,
  freeSpinSettled,
  type BonusCallRegistered,
  type FreeSpinStarted,
  type FreeSpinSettled,
  type RegularBonusSpinSettled,
  type BonusCallCompleted,
  type BonusCallExpired,
  type BonusCallCanceled,
  type BonusRequestAccepted,
  type PlayerBonusEvent,
} from './events/bonus.js';
export { type EventMetadata, type EventContext } from './events/metadata.js';
export {
  roundStartedData,
  roundSettledData,
  roundCanceledData,
  type RoundStarted,
  type RoundSettled,
  type RoundCanceled,
  type RoundEvent,
} from './events/round.js';
export {
  SESSION_TOKEN_PATTERN,
  sessionKeyOf,
  gameSessionStartedData,
  type GameSessionStarted,
  type SessionEvent,
} from './events/session.js';
export {
  playerBonusStream,
  bonusRequestStream,
  sessionStream,
  sessionKeyStream,
  roundStream,
  walletTxStream,
  webhookLetterStream,
  encodeStreamComponent,
  streamPrefix,
  parseStreamId,
  StreamCategories,
  type StreamCategory,
  streamEventParser,
} from './events/streams.js';
export {
  isEventType,
  currentSchemaVersion,
  parseStoredEvent,
  eventToAppend,
  type DomainEvent,
  UnknownEventTypeError,
  UnsupportedSchemaVersionError,
  InvalidEventDataError,
} from './events/upcasting.js';
export { type WalletTxEvent } from './events/wallet.js';
export { type WebhookDeadLettered, type WebhookLetterEvent } from './events/webhook-letter.js';
export { Headers, HttpHeaders, JSON_CONTENT_TYPE } from './headers.js';
export {
  parseOperatorsConfig,
  parseOperatorsJson,
  parseOperatorsDocumentJson,
  type OperatorsDocument,
  type CallbackIdEncoding,
  type SignatureScheme,
  type WinRedriveSchedule,
  WIN_REDRIVE_DEFAULTS,
  type OperatorConfigInput,
  type OperatorConfig,
  type OperatorsConfig,
  OperatorsConfigError,
  apiTokenDigest,
} from './operators.js';
export { authenticateOperator, operatorTokensOf, type OperatorToken } from './operator-auth.js';
export { longIdText } from './shared/ids.js';
export { playerId, currencyCode, operatorId, httpUrl } from './shared/primitives.js';
export { sha256HexOf } from './shared/sha256.js';
export { canonicalJson } from './shared/canonical-json.js';
export { describeIssues } from './shared/issues.js';
export {
  formatLocalDateTime,
  wallClockAt,
  zonedLocalToInstant,
  localDateTimeToInstant,
  type LocalDateTime,
} from './time.js';
export {
  bonusWebhookKey,
  GAME_SERVER_SHARES_GROUP,
  GATEWAY_LIMITS_GROUP,
  playerKey,
  TopicPartitions,
  Topics,
} from './topics.js';
export {
  bonusWebhook,
  bonusWebhookEventId,
  bonusWebhookMessage,
  bonusWebhookOf,
  type BonusWebhook,
} from './callbacks/webhooks.js';
export { catalogSchema, type Catalog, type CatalogGame } from './catalog/catalog-schema.js';
export {
  BetLevelError,
  betLevelsMinor,
  findGame,
  findProvider,
  gamesOfProvider,
  offeredBetLevelsMinor,
} from './catalog/catalog.js';
