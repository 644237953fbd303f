import { randomUUID } from 'node:crypto';
import { HttpHeaders, messageId } from '@reelstream/contracts';
import type { Request, RequestHandler, Response } from 'express';

/** The caller's X-Request-Id when it is a valid message id, else a new one: the correlationId of what the request causes. */
export function requestIdMiddleware(): RequestHandler {
  return (req, res, next) => {
    const given = req.get(HttpHeaders.requestId);
    const requestId = given !== undefined && messageId.safeParse(given).success ? given : randomUUID();
    res.locals['requestId'] = requestId;
    res.set(HttpHeaders.requestId, requestId);
    next();
  };
}

export function requestIdOf(res: Response): string {
  const value: unknown = res.locals['requestId'];
  return typeof value === 'string' ? value : randomUUID();
}

/** The route as logged: never the session token, which is the player's credential. */
export function loggedPath(req: Request): string {
  const route: unknown = req.route;
  const pattern =
    typeof route === 'object' && route !== null && typeof (route as { path?: unknown }).path === 'string'
      ? (route as { path: string }).path
      : undefined;
  return pattern ?? req.path.replace(/\/api\/sessions\/[^/]+/, '/api/sessions/:token');
}
