/**
 * D8: X-Request-Signature is the lowercase hex HMAC-SHA256, with the operator's current secret, of
 * what the operator's `signatureScheme` says is signed. Under `body` (the default) the raw body
 * bytes alone; under `timestamp.body` (an operator's opt-in) `<X-Request-Timestamp>.` and
 * then the body, so a captured request cannot be replayed once its timestamp is stale. The HMAC is
 * a function of its inputs alone, which is why this pure library may compute it (node:crypto's
 * hashing is allowed here by the lint): the adapter only passes the bytes it sends.
 */
import { createHmac } from 'node:crypto';
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

/** The X-Request-Signature value of a callback: `body` must be the exact bytes sent (a string is taken as UTF-8). */
export function signCallbackBody(
  body: Uint8Array | string,
  secret: string,
  scheme: SignatureScheme = 'body',
  timestampSeconds?: number,
): string {
  return createHmac('sha256', secret).update(signedPrefix(scheme, timestampSeconds), 'utf8').update(body).digest('hex');
}
