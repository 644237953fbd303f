/**
 * The one way reelstream says what went wrong: a code from the catalogue, a message,
 * the details an operator sees, and whether trying the same thing again may succeed — the
 * `retriable` flag of kafkajs's KafkaJSError. Code that must choose between retrying and giving
 * up (park a message, exit with "fix the input") reads the flag, never a class name.
 *
 * It has two forms of one shape: a `Refusal` is the value a pure decider returns (plain data, so
 * tests compare it field by field and it can be stored or sent), a `ReelstreamError` is what code
 * throws when it cannot go on. `ReelstreamError.from(refusal)` turns one into the other.
 */
import { defaultMessageOf, type ErrorCode, type ErrorDetail } from './errors.js';

export interface Refusal {
  readonly type: 'Refusal';
  readonly code: ErrorCode;
  readonly message: string;
  /** One entry per problem, as the API answers them. */
  readonly details?: readonly ErrorDetail[];
  /** A decider's refusal is not: the same command on the same state is refused the same way. */
  readonly retriable: boolean;
}

export interface RefusalOptions {
  readonly details?: readonly ErrorDetail[] | undefined;
  readonly retriable?: boolean;
}

export function refusal(
  code: ErrorCode,
  message: string = defaultMessageOf(code),
  options: RefusalOptions = {},
): Refusal {
  const retriable = options.retriable ?? false;
  return options.details === undefined
    ? { type: 'Refusal', code, message, retriable }
    : { type: 'Refusal', code, message, details: options.details, retriable };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Refusal';
}

export interface ReelstreamErrorOptions {
  readonly details?: readonly ErrorDetail[] | undefined;
  /** Always said, never defaulted: each error class decides whether the same thing may succeed later. */
  readonly retriable: boolean;
  readonly cause?: unknown;
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

  constructor(code: ErrorCode, message: string | undefined, options: ReelstreamErrorOptions) {
    super(message ?? defaultMessageOf(code), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.details !== undefined) this.details = options.details;
    this.retriable = options.retriable;
  }

  static from(refused: Refusal): ReelstreamError {
    return new ReelstreamError(refused.code, refused.message, {
      details: refused.details,
      retriable: refused.retriable,
    });
  }

  toRefusal(): Refusal {
    return refusal(this.code, this.message, { details: this.details, retriable: this.retriable });
  }
}

/**
 * Whether handling the same thing again may succeed: only a ReelstreamError that says so. An error
 * without the flag (a bug, a foreign library's error an adapter did not translate) is not transient;
 * an adapter that knows a foreign error is transient throws its own ReelstreamError for it.
 */
export function isRetriable(error: unknown): boolean {
  return error instanceof ReelstreamError && error.retriable;
}
