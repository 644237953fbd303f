import type { OperatorDirectory } from '@reelstream/config';
import type { RequestHandler } from 'express';
import { ApiError } from '@reelstream/http';
import { requestContext } from './request-context.js';

/** `Bearer <token>`: the scheme is case-insensitive (RFC 9110), the token is the rest after one or more spaces. */
const BEARER = /^Bearer +(\S+) *$/i;
/** Longer than any configured token can be: hashing megabytes on every request is not free. */
const MAX_TOKEN_LENGTH = 1024;

/**
 * Authorization: Bearer <API_TOKEN> (spec §5). The operator directory hashes the token with
 * SHA-256 and compares it with every operator's digest by `crypto.timingSafeEqual`. A missing,
 * malformed or unknown token is the same 401, with nothing that tells which it was.
 */
export function authMiddleware(operators: OperatorDirectory): RequestHandler {
  return (req, res, next) => {
    const header = req.get('authorization');
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const operator =
      token !== undefined && token.length <= MAX_TOKEN_LENGTH ? operators.authenticate(token) : undefined;
    if (operator === undefined) {
      res.set('WWW-Authenticate', 'Bearer realm="reelstream"');
      throw new ApiError('UNAUTHORIZED');
    }
    requestContext(res).operator = operator;
    next();
  };
}
