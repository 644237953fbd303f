/**
 * The operator's side of D8: X-Request-Signature is the lowercase hex HMAC-SHA256, with either
 * of the operator's two secrets during a rotation, of the raw body bytes — or, for an operator
 * configured with `signatureScheme: "timestamp.body"`, of `<X-Request-Timestamp>.<body bytes>`,
 * where a timestamp more than 5 minutes away from now is refused (a stale replay). Written here
 * independently of the dispatcher's signer, so the sandbox checks the platform, not itself.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureScheme } from '@reelstream/contracts';

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^[0-9]{1,15}$/;

/** How far X-Request-Timestamp may be from the sandbox's clock under `timestamp.body`. */
export const MAX_TIMESTAMP_SKEW_SECONDS = 300;

function verifySignature(signedBytes: Buffer, header: string | undefined, secrets: readonly string[]): boolean {
  if (header === undefined || !HEX_SHA256.test(header)) return false;
  const presented = Buffer.from(header, 'hex');
  let valid = false;
  // Every secret is checked every time, so timing does not tell which one matched.
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(signedBytes).digest();
    if (timingSafeEqual(expected, presented)) valid = true;
  }
  return valid;
}

export interface SignedRequest {
  rawBody: Buffer;
  signature: string | undefined;
  timestamp: string | undefined;
}

/** undefined when the request is authentic (and, under `timestamp.body`, fresh); else why not. */
export function signatureProblem(
  request: SignedRequest,
  operator: { signingSecrets: readonly string[]; signatureScheme: SignatureScheme },
  nowSeconds: number,
): string | undefined {
  if (operator.signatureScheme === 'body') {
    return verifySignature(request.rawBody, request.signature, operator.signingSecrets)
      ? undefined
      : 'X-Request-Signature is not the HMAC-SHA256 of the body with this operator’s secret';
  }
  const { timestamp } = request;
  if (timestamp === undefined || !UNIX_SECONDS.test(timestamp))
    return 'X-Request-Timestamp must be the Unix time of the request in whole seconds';
  const age = nowSeconds - Number(timestamp);
  if (age > MAX_TIMESTAMP_SKEW_SECONDS)
    return `X-Request-Timestamp is ${age} s old (more than ${MAX_TIMESTAMP_SKEW_SECONDS} s): refused as a possible replay`;
  if (-age > MAX_TIMESTAMP_SKEW_SECONDS)
    return `X-Request-Timestamp is ${-age} s ahead of this wallet’s clock (more than ${MAX_TIMESTAMP_SKEW_SECONDS} s)`;
  const signed = Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), request.rawBody]);
  return verifySignature(signed, request.signature, operator.signingSecrets)
    ? undefined
    : 'X-Request-Signature is not the HMAC-SHA256 of `<X-Request-Timestamp>.<body>` with this operator’s secret';
}
