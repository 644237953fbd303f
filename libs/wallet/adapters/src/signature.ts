/**
 * D8: X-Request-Signature = lowercase hex HMAC-SHA256 with the operator's current secret, over
 * the raw body bytes (`body`, the default) or, for an operator that opted in, over
 * `<X-Request-Timestamp>.<body bytes>` (`timestamp.body`), so a captured request cannot be
 * replayed once its timestamp is stale.
 */
import { createHmac } from 'node:crypto';
import type { SignatureScheme } from '@reelstream/contracts';

export function signCallbackBody(
  body: Buffer | string,
  secret: string,
  scheme: SignatureScheme = 'body',
  timestampSeconds?: number,
): string {
  const hmac = createHmac('sha256', secret);
  if (scheme === 'timestamp.body') {
    if (timestampSeconds === undefined || !Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
      throw new RangeError(
        `the timestamp.body scheme signs a timestamp in whole Unix seconds, got ${String(timestampSeconds)}`,
      );
    }
    hmac.update(`${timestampSeconds}.`, 'utf8');
  }
  return hmac.update(body).digest('hex');
}
