/**
 * D8: what X-Request-Signature covers. Under `body` (the default) the raw body bytes alone; under
 * `timestamp.body` (an operator's opt-in, issue 10) `<X-Request-Timestamp>.` and then the body,
 * so a captured request cannot be replayed once its timestamp is stale. The lowercase hex
 * HMAC-SHA256 over it is computed by the adapter (`signCallbackBody`): node:crypto is I/O to this
 * library's lint.
 */
import type { SignatureScheme } from '@reelstream/contracts';

/** What precedes the body bytes in the signed content: nothing, or the attempt's timestamp and a dot. */
export function signedPrefix(scheme: SignatureScheme, timestampSeconds?: number): string {
  if (scheme === 'body') return '';
  if (timestampSeconds === undefined || !Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(
      `the timestamp.body scheme signs a timestamp in whole Unix seconds, got ${String(timestampSeconds)}`,
    );
  }
  return `${timestampSeconds}.`;
}
