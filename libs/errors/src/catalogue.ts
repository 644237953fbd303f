/**
 * The one error catalogue (decisions.md D16: one catalogue, stable codes). Every error any service
 * reports, over HTTP or on the bus, and every error class it throws, has a code from here, down to
 * the money kernel's. The HTTP status is defined here so there is one table, and used only by the
 * gateway (and the launch host's player API). Statuses stay inside D16's list: 400, 401, 403, 404,
 * 409, 422, 429, 503 — never 500.
 *
 * A kernel library: plain data and functions, no zod and no I/O, so that `@reelstream/money` can
 * throw the family's errors. The zod schemas of codes and details are `@reelstream/contracts`'.
 */

export type HttpErrorStatus = 400 | 401 | 403 | 404 | 409 | 422 | 429 | 503;

export interface ErrorDefinition {
  readonly status: HttpErrorStatus;
  readonly message: string;
}

export const ErrorCatalogue = {
  // Request shape (gateway).
  VALIDATION_FAILED: { status: 400, message: 'The request is not valid.' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 400, message: 'The request body must be sent as Content-Type: application/json.' },
  PAYLOAD_TOO_LARGE: { status: 400, message: 'The request body is too large.' },
  AMOUNT_PRECISION: { status: 400, message: 'An amount has more decimal places than the currency allows.' },
  // The money kernel's: the edges answer an unreadable amount as VALIDATION_FAILED, with this error's message as a detail.
  AMOUNT_INVALID: { status: 400, message: 'An amount is not a finite decimal number.' },
  AMOUNT_TOO_LARGE: { status: 400, message: 'An amount is too large to be held exactly in minor units.' },
  CURSOR_INVALID: {
    status: 400,
    message: 'The cursor is not a nextCursor this list gave this operator (altered, or another operator’s).',
  },
  // Who is calling.
  UNAUTHORIZED: { status: 401, message: 'A valid Authorization: Bearer <API_TOKEN> header is required.' },
  FORBIDDEN: { status: 403, message: 'This operator may not perform this operation.' },
  STREAMER_NOT_ALLOWED: {
    status: 403,
    message: 'Streamer launches (isStreamer: true) are not enabled for this operator (features.streamers).',
  },
  PLAYER_NOT_AUTHENTICATED: {
    status: 403,
    message: "The operator's wallet did not authenticate the player; the round was canceled.",
  },
  // What is addressed (D18: another operator's resource is also a 404).
  NOT_FOUND: { status: 404, message: 'The resource was not found.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No such endpoint.' },
  BONUS_NOT_FOUND: { status: 404, message: 'No bonus call with this id exists for this operator.' },
  SESSION_NOT_FOUND: { status: 404, message: 'No game session with this token exists.' },
  ROUND_NOT_FOUND: {
    status: 404,
    message: 'No round with this id exists for the caller (its game session, or its operator).',
  },
  CAMPAIGN_NOT_FOUND: { status: 404, message: 'No campaign with this id exists for this operator.' },
  TRANSACTION_NOT_FOUND: { status: 404, message: 'No wallet transaction with this id exists for this operator.' },
  WEBHOOK_NOT_FOUND: {
    status: 404,
    message: 'No dead-lettered bonus webhook with this eventId exists for this operator.',
  },
  // State conflicts.
  PLATFORM_ID_CONFLICT: {
    status: 409,
    message: 'This platformId was already registered with a different request body.',
  },
  CAMPAIGN_ID_CONFLICT: {
    status: 409,
    message: 'This campaignId was already started with a different request body.',
  },
  ACTIVE_BONUS_EXISTS: {
    status: 409,
    message: 'The player already has an active bonus call; only one may run at a time.',
  },
  BONUS_ALREADY_COMPLETED: { status: 409, message: 'The bonus call is completed and cannot be canceled.' },
  BONUS_EXPIRED: { status: 409, message: 'The bonus call has expired.' },
  NOT_DEAD_LETTERED: {
    status: 409,
    message: 'The transaction is not a dead-lettered win: it is being delivered, or it cannot be re-driven.',
  },
  BONUS_NOT_ACTIVE: { status: 409, message: 'The bonus call is not active.' },
  FREE_SPIN_IN_PROGRESS: { status: 409, message: 'A free spin of this bonus call is already in progress.' },
  FREE_SPIN_NOT_STARTED: { status: 409, message: 'No free spin of this bonus call is in progress for this round.' },
  SESSION_EXPIRED: { status: 409, message: 'The game session has expired.' },
  INSUFFICIENT_FUNDS: { status: 409, message: "The player's balance does not cover the bet." },
  BET_REJECTED: { status: 409, message: "The operator's wallet rejected the bet; the round was canceled." },
  SPIN_IN_PROGRESS: { status: 409, message: 'A spin of this game session is still in progress.' },
  // Valid shape, impossible request.
  BONUS_TYPE_UNAVAILABLE: { status: 422, message: 'This bonus type is not available for this operator.' },
  PROVIDER_NOT_FOUND: { status: 422, message: 'The game provider does not exist.' },
  GAME_NOT_FOUND: { status: 422, message: 'The game does not exist.' },
  GAME_NOT_OF_PROVIDER: { status: 422, message: 'The game does not belong to the given provider.' },
  GAME_NOT_IN_BONUS: { status: 422, message: 'The game is not one of the games of this bonus call.' },
  FREE_SPINS_NOT_SUPPORTED: { status: 422, message: 'The game does not support free spins.' },
  REGULAR_BONUS_NOT_SUPPORTED: {
    status: 422,
    message: 'The game cannot deliver a Regular Bonus Call (bonusType 2): its spins cannot be steered.',
  },
  EXPIRE_AT_IN_PAST: { status: 422, message: 'expireAt must be in the future.' },
  EXPIRE_AT_NOT_IN_ZONE: {
    status: 422,
    message: "expireAt does not exist in the operator's time zone (the clocks skip it).",
  },
  RETURN_URL_NOT_ALLOWED: { status: 422, message: "returnUrl is not within the operator's allowed return origins." },
  BET_NOT_ALLOWED: { status: 422, message: 'The bet is not one of the bet levels of this game.' },
  BET_LEVEL_NOT_AVAILABLE: {
    status: 422,
    message: 'baseBetAmount is not a bet level of every game of the bonus call in its currency.',
  },
  CALL_AMOUNT_LIMIT_EXCEEDED: {
    status: 422,
    message: "callAmount is above the operator's limit (maxCallAmount) for this currency.",
  },
  BASE_BET_LIMIT_EXCEEDED: {
    status: 422,
    message: "baseBetAmount is above the operator's limit (maxBaseBetAmount) for this currency.",
  },
  CURRENCY_NOT_ALLOWED: { status: 422, message: 'The currency is not one of the currencies this operator may use.' },
  CURRENCY_UNKNOWN: { status: 422, message: 'The currency is not an active ISO 4217 currency code.' },
  BONUS_CURRENCY_MISMATCH: {
    status: 409,
    message:
      'The bonus call is in another currency than this game session; its free spins are played only in a session of its currency.',
  },
  // The walletTx decider's refusals: reported on the bus, in logs and dead letters, never over the operator API.
  TRANSACTION_ID_CONFLICT: {
    status: 409,
    message: 'This transactionId is already recorded for another wallet request; the recorded one stands.',
  },
  WALLET_TX_NOT_RECORDED: { status: 404, message: 'No wallet request is recorded for this transactionId.' },
  WALLET_TX_SETTLED: { status: 409, message: 'The wallet transaction is already settled.' },
  WALLET_ATTEMPTS_EXHAUSTED: { status: 409, message: 'The wallet transaction has had all its delivery attempts.' },
  WALLET_NO_ATTEMPT_IN_FLIGHT: {
    status: 409,
    message: 'No delivery attempt of this wallet transaction awaits an outcome.',
  },
  WALLET_CANCEL_ID_MISSING: {
    status: 422,
    message: 'A failed wallet request needs a cancel with its own transactionId.',
  },
  WALLET_TX_NOT_DEAD_LETTERED: { status: 409, message: 'The wallet transaction is not dead-lettered.' },
  WALLET_NO_CANCEL_PENDING: { status: 409, message: 'No cancel of this wallet transaction is pending.' },
  WALLET_TX_NOT_A_WIN: { status: 422, message: 'Only wins are dead-lettered and re-driven.' },
  WALLET_TX_NOT_A_STAKE: { status: 422, message: 'Only bets and betwins are abandoned with a cancel.' },
  WEBHOOK_NOT_DEAD_LETTERED: {
    status: 409,
    message: 'The bonus webhook is not dead-lettered: it was re-driven already.',
  },
  WALLET_DEADLINE_NOT_PASSED: {
    status: 409,
    message: 'The wallet request is still within its deadline: it is sent, not timed out.',
  },
  // Faults no retry mends: fix the input (a setting, the code that reads an event) and start again.
  CONFIGURATION_INVALID: { status: 503, message: 'The service configuration is not valid.' },
  EVENT_NOT_READABLE: { status: 503, message: 'A stored event cannot be read by this version of the code.' },
  // Back-pressure and failures.
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry after the time given in Retry-After.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is temporarily unavailable; retry later.' },
  INTERNAL: { status: 503, message: 'An internal error occurred; retry later.' },
  WALLET_UNAVAILABLE: {
    status: 503,
    message: "The operator's wallet did not answer in time; the round will be settled or canceled automatically.",
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ErrorCatalogue;

export const ERROR_CODES = Object.keys(ErrorCatalogue) as [ErrorCode, ...ErrorCode[]];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCatalogue, value);
}

export function httpStatusOf(code: ErrorCode): HttpErrorStatus {
  return ErrorCatalogue[code].status;
}

export function defaultMessageOf(code: ErrorCode): string {
  return ErrorCatalogue[code].message;
}

/** One entry of `error.details`: which field (`metaData.spinAmount`, `gameId[1]`; empty for the whole body) and why. */
export interface ErrorDetail {
  path: string;
  message: string;
}
