/**
 * D8: X-Request-Signature = lowercase hex HMAC-SHA256 with the operator's current secret, over
 * the content wallet-domain's `signedPrefix` says: the raw body bytes (`body`, the default) or,
 * for an operator that opted in, `<X-Request-Timestamp>.<body bytes>` (`timestamp.body`).
 */
import { createHmac } from 'node:crypto';
import type { SignatureScheme } from '@reelstream/contracts';
import { signedPrefix } from '@reelstream/wallet-domain';

export function signCallbackBody(
  body: Buffer | string,
  secret: string,
  scheme: SignatureScheme = 'body',
  timestampSeconds?: number,
): string {
  return createHmac('sha256', secret).update(signedPrefix(scheme, timestampSeconds), 'utf8').update(body).digest('hex');
}
