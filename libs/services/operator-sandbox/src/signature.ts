/**
 * The operator's side of D8: X-Request-Signature is the lowercase hex HMAC-SHA256 of the raw
 * body bytes; during a rotation either of the operator's two secrets is accepted. Written here
 * independently of the dispatcher's signer, so the sandbox checks the platform, not itself.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

export function verifySignature(rawBody: Buffer, header: string | undefined, secrets: readonly string[]): boolean {
  if (header === undefined || !HEX_SHA256.test(header)) return false;
  const presented = Buffer.from(header, 'hex');
  let valid = false;
  // Every secret is checked every time, so timing does not tell which one matched.
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    if (timingSafeEqual(expected, presented)) valid = true;
  }
  return valid;
}
