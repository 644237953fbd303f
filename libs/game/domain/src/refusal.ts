/**
 * A refused game command, as a value: the round and session deciders and rules return it instead
 * of throwing, with a code from the one error catalogue. Only the launch host's edge turns it into
 * an HTTP answer (status from the catalogue, `Retry-After` from `retryAfterSeconds`).
 */
import { defaultMessageOf, type ErrorCode, type ErrorDetail } from '@reelstream/contracts';

export interface GameRefusal {
  readonly type: 'GameRefusal';
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
  /** When the caller may try again (a dependency that did not answer in time). */
  readonly retryAfterSeconds?: number;
}

export function gameRefusal(
  code: ErrorCode,
  message: string = defaultMessageOf(code),
  details?: readonly ErrorDetail[],
  retryAfterSeconds?: number,
): GameRefusal {
  return {
    type: 'GameRefusal',
    code,
    message,
    ...(details === undefined ? {} : { details }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

export function isGameRefusal(value: unknown): value is GameRefusal {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'GameRefusal';
}
