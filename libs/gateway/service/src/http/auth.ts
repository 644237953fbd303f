import type { OperatorDirectory } from '@reelstream/platform-config';
import { isRefusal, RefusedError } from '@reelstream/contracts';
import type { Request, RequestHandler } from 'express';
import { requestContext } from './request-context.js';

/**
 * Authorization: Bearer <API_TOKEN> (spec §5). Which operator a token names, and what is refused,
 * is contracts' `authenticateOperator`; here the header is read and a refusal answered as 401, once
 * `unauthenticated` counted it (it throws 429 past its client address's limit).
 */
export function authMiddleware(
  operators: OperatorDirectory,
  unauthenticated: (req: Request) => void = () => undefined,
): RequestHandler {
  return (req, res, next) => {
    const operator = operators.authenticate(req.get('authorization'));
    if (isRefusal(operator)) {
      unauthenticated(req);
      res.set('WWW-Authenticate', 'Bearer realm="reelstream"');
      throw RefusedError.from(operator);
    }
    requestContext(res).operator = operator;
    next();
  };
}
