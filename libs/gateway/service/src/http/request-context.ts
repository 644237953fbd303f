/**
 * What the middleware learns about a request, kept on `res.locals` under one typed key so the
 * routes read it without casts scattered around.
 */
import type { OperatorConfig } from '@reelstream/contracts';
import type { Response } from 'express';

export interface RequestContext {
  requestId: string;
  /** Set by the auth middleware on /v1. */
  operator?: OperatorConfig;
}

const KEY = 'gateway';

export function setRequestContext(res: Response, context: RequestContext): void {
  res.locals[KEY] = context;
}

export function requestContext(res: Response): RequestContext {
  const context = res.locals[KEY] as RequestContext | undefined;
  if (context === undefined) throw new Error('request context missing: the request-id middleware must run first');
  return context;
}

/** The authenticated operator; only routes behind the auth middleware call this. */
export function callerOf(res: Response): OperatorConfig {
  const operator = requestContext(res).operator;
  if (operator === undefined) throw new Error('no authenticated operator: the route is not behind the auth middleware');
  return operator;
}
