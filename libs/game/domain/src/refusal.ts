/**
 * A refused game command, as a value: the round and session deciders and rules return the one
 * `Refusal` of the error catalogue (contracts) instead of throwing. Only the launch host's edge
 * turns it into an HTTP answer (status from the catalogue, `Retry-After` from `retryAfterSeconds`).
 */
import { isRefusal, refusal, type ErrorCode, type ErrorDetail, type Refusal } from '@reelstream/contracts';

export interface GameRefusal extends Refusal {
  /** When the caller may try again (a dependency that did not answer in time): the refusal is then retriable. */
  readonly retryAfterSeconds?: number;
}

export function gameRefusal(
  code: ErrorCode,
  message?: string,
  details?: readonly ErrorDetail[],
  retryAfterSeconds?: number,
): GameRefusal {
  const refused = refusal(code, message, { details, retriable: retryAfterSeconds !== undefined });
  return retryAfterSeconds === undefined ? refused : { ...refused, retryAfterSeconds };
}

export function isGameRefusal(value: unknown): value is GameRefusal {
  return isRefusal(value);
}
