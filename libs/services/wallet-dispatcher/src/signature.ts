/** D8: X-Request-Signature = lowercase hex HMAC-SHA256 of the raw body bytes with the operator's current secret. */
import { createHmac } from 'node:crypto';

export function signCallbackBody(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
