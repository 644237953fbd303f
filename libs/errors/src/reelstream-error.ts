/**
 * The one way reelstream says what went wrong: a code from the catalogue, a message,
 * the details an operator sees, and whether trying the same thing again may succeed — the
 * `retriable` flag of kafkajs's KafkaJSError. Code that must choose between retrying and giving
 * up (park a message, exit with "fix the input") reads the flag, never a class name.
 *
 * It has two forms of one shape: a `Refusal` is the value a pure decider returns (plain data, so
 * tests compare it field by field and it can be stored or sent), a `ReelstreamError` is what code
 * throws when it cannot go on. A `RefusedError` is the thrown form of a refusal: the caller's request
 * is refused and is answered with the refusal's code, message and details (`RefusedError.from(refusal)`);
 * every other error is a fault of ours and is answered only by its code's default message.
 */
import { defaultMessageOf, httpStatusOf, type ErrorCode, type ErrorDetail, type HttpErrorStatus } from './catalogue.js';

export interface Refusal {
  readonly type: 'Refusal';
  readonly code: ErrorCode;
  readonly message: string;
  /** One entry per problem, as the API answers them. */
  readonly details?: readonly ErrorDetail[];
  /** A decider's refusal is not: the same command on the same state is refused the same way. */
  readonly retriable: boolean;
  /** When the caller may try again (a dependency that did not answer in time); answered as `Retry-After`. */
  readonly retryAfterSeconds?: number;
}

export interface RefusalOptions {
  readonly details?: readonly ErrorDetail[] | undefined;
  /** Defaults to whether a retry time is given. */
  readonly retriable?: boolean;
  readonly retryAfterSeconds?: number | undefined;
}

export function refusal(
  code: ErrorCode,
  message: string = defaultMessageOf(code),
  options: RefusalOptions = {},
): Refusal {
  const { details, retryAfterSeconds } = options;
  const retriable = options.retriable ?? retryAfterSeconds !== undefined;
  return {
    type: 'Refusal',
    code,
    message,
    ...(details === undefined ? {} : { details }),
    retriable,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Refusal';
}

export interface ReelstreamErrorOptions {
  readonly details?: readonly ErrorDetail[] | undefined;
  /** Always said, never defaulted: each error class decides whether the same thing may succeed later. */
  readonly retriable: boolean;
  readonly cause?: unknown;
  readonly retryAfterSeconds?: number | undefined;
}

/**
 * Thrown: the base of every error class reelstream throws. `retriable: true` says the same call or
 * message may succeed later (a timeout, a revision conflict, a closed bus); `false` says it will
 * not (a configuration key, an event this code cannot read, a fenced-out worker).
 */
export class ReelstreamError extends Error {
  override name = 'ReelstreamError';
  readonly code: ErrorCode;
  readonly details?: readonly ErrorDetail[];
  readonly retriable: boolean;
  /** When the same call may be tried again, when the error knows. */
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string | undefined, options: ReelstreamErrorOptions) {
    super(message ?? defaultMessageOf(code), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.details !== undefined) this.details = options.details;
    this.retriable = options.retriable;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toRefusal(): Refusal {
    return refusal(this.code, this.message, {
      details: this.details,
      retriable: this.retriable,
      retryAfterSeconds: this.retryAfterSeconds,
    });
  }
}

/**
 * A request refused, thrown: by a use case that cannot go on for a reason its caller can act on, or
 * by an HTTP route. An API answers it with the catalogue's status for its code, its message and
 * details, and `Retry-After` from `retryAfterSeconds`. Retriable when a retry time is given or the
 * code's status says "try again later" (429, 503), unless said otherwise.
 */
export class RefusedError extends ReelstreamError {
  override name = 'RefusedError';

  constructor(code: ErrorCode, message?: string, options: RefusalOptions = {}) {
    const status = httpStatusOf(code);
    super(code, message, {
      details: options.details,
      retriable: options.retriable ?? (options.retryAfterSeconds !== undefined || status === 429 || status === 503),
      retryAfterSeconds: options.retryAfterSeconds,
    });
  }

  get status(): HttpErrorStatus {
    return httpStatusOf(this.code);
  }

  /** A decider's refusal (or a service's reply refusing a command), thrown as it is. */
  static from(refused: Refusal): RefusedError {
    return new RefusedError(refused.code, refused.message, refused);
  }

  static validation(details: readonly ErrorDetail[]): RefusedError {
    return new RefusedError('VALIDATION_FAILED', undefined, { details });
  }
}

/** Whether `error` is a refusal thrown (with `code`, when given). */
export function isRefusedError(error: unknown, code?: ErrorCode): error is RefusedError {
  return error instanceof RefusedError && (code === undefined || error.code === code);
}

/**
 * Whether handling the same thing again may succeed: only a ReelstreamError that says so. An error
 * without the flag (a bug, a foreign library's error an adapter did not translate) is not transient;
 * an adapter that knows a foreign error is transient throws its own ReelstreamError for it.
 */
export function isRetriable(error: unknown): boolean {
  return error instanceof ReelstreamError && error.retriable;
}
