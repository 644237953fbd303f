import { randomUUID } from 'node:crypto';
import { HttpHeaders, messageId } from '@reelstream/contracts';
import type { RequestHandler } from 'express';
import { setRequestContext } from './request-context.js';

/**
 * X-Request-Id: a caller's id is kept when it is a safe message id (it becomes the correlationId
 * of the commands and events the request causes), anything else is replaced by a fresh UUID.
 * Echoed on every response, errors included.
 */
export function requestIdMiddleware(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get(HttpHeaders.requestId);
    const requestId = incoming !== undefined && messageId.safeParse(incoming).success ? incoming : randomUUID();
    setRequestContext(res, { requestId });
    res.set(HttpHeaders.requestId, requestId);
    next();
  };
}
