/**
 * Who is calling the operator API (spec §5: `Authorization: Bearer <API_TOKEN>`). The token names
 * the operator whose configured token it is, compared as SHA-256 digests (the configuration keeps
 * only the digest, `apiTokenSha256`). A missing, malformed, oversized or unknown token is one and
 * the same refusal, `401 UNAUTHORIZED`, with nothing that tells which it was. The HTTP edge only
 * reads the header and answers the refusal; this is where it is decided.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { refusal, type Refusal } from '@reelstream/errors';

/** `Bearer <token>`: the scheme is case-insensitive (RFC 9110), the token is the rest after one or more spaces. */
const BEARER = /^Bearer +(\S+) *$/i;
/** Longer than any configured token can be: hashing megabytes on every request is not free. */
export const MAX_BEARER_TOKEN_LENGTH = 1024;

/** The operators with their token digests as bytes, computed once when the configuration is loaded. */
export interface OperatorToken<O> {
  readonly digest: Uint8Array;
  readonly operator: O;
}

export function operatorTokensOf<O extends { readonly apiTokenSha256: string }>(
  operators: readonly O[],
): readonly OperatorToken<O>[] {
  return operators.map((operator) => ({ digest: Buffer.from(operator.apiTokenSha256, 'hex'), operator }));
}

/** The token of an Authorization header value, if it is a bearer token of an acceptable length. */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  return token !== undefined && token.length <= MAX_BEARER_TOKEN_LENGTH ? token : undefined;
}

/**
 * The operator an Authorization header names, or the refusal. The presented token is hashed and
 * compared with every operator's digest by `timingSafeEqual`, all of them every time, so neither
 * the comparison nor the number of comparisons depends on which operator (if any) matched.
 */
export function authenticateOperator<O>(
  authorization: string | undefined,
  tokens: readonly OperatorToken<O>[],
): O | Refusal {
  const token = bearerTokenOf(authorization);
  if (token === undefined) return refusal('UNAUTHORIZED');
  const presented = createHash('sha256').update(token, 'utf8').digest();
  let found: O | undefined;
  for (const { digest, operator } of tokens) {
    if (timingSafeEqual(presented, digest) && found === undefined) found = operator;
  }
  return found === undefined ? refusal('UNAUTHORIZED') : found;
}
