/**
 * The one answer of an HTTP API (the gateway's operator API, the launch host's player API) when
 * the bonus-ledger did not reply in time: 503 SERVICE_UNAVAILABLE with Retry-After. The command
 * may still be decided later, so `hint` tells the caller what a retry does.
 */
import { LedgerTimeoutError } from '@reelstream/bonus-client';
import { ApiError } from './api-error.js';

/**
 * `error` as the ApiError to answer when it is a `LedgerTimeoutError`; anything else unchanged.
 * Retry-After is the ledger's time limit in whole seconds (at least 1) unless `retryAfterSeconds` is given.
 */
export function ledgerTimeoutAsApiError(error: unknown, hint: string, retryAfterSeconds?: number): unknown {
  if (!(error instanceof LedgerTimeoutError)) return error;
  const seconds = retryAfterSeconds ?? Math.max(1, Math.ceil(error.timeoutMs / 1_000));
  return new ApiError('SERVICE_UNAVAILABLE', `The bonus service did not answer in time; ${hint}`, undefined, {
    'Retry-After': String(seconds),
  });
}
