/**
 * A refused command is a value: `decide` returns a `Refusal` (contracts, issue 11) instead of
 * throwing, with a code from the one error catalogue (the gateway alone maps it to an HTTP status).
 */
import { isRefusal, refusal, type ErrorCode, type ErrorDetail, type Refusal } from '@reelstream/contracts';

export { isRefusal, refusal, type Refusal } from '@reelstream/contracts';

// The former names, for `decideAndAppend` until its rewrite (branch wip/es) imports Refusal itself.
/** @deprecated Refusal. */
export type DomainError = Refusal;
/** @deprecated isRefusal. */
export const isDomainError = isRefusal;
/** @deprecated refusal. */
export function domainError(code: ErrorCode, message?: string, details?: readonly ErrorDetail[]): Refusal {
  return refusal(code, message, { details });
}
