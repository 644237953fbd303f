import type { Clock } from '@reelstream/platform-ports';
import type { Request, RequestHandler } from 'express';
import { clientAddressKey, refuseOverLimit, TokenBucketLimiter, type RateLimitConfig } from '@reelstream/platform-http';
import { rateLimitForShare } from './limit-share.js';
import { callerOf } from './request-context.js';

/**
 * The budget of campaign players (docs/adr/0014-fair-campaigns-and-campaign-budget.md): per
 * operator, a campaign of N players takes N tokens, refilled at the rate an operator may register
 * bonus calls one by one; the bucket holds one campaign of the largest size.
 */
export const DEFAULT_CAMPAIGN_RATE_LIMIT: RateLimitConfig = { perSecond: 50, burst: 10_000 };

/**
 * 429 RATE_LIMITED with Retry-After once the calling operator's bucket is empty. An operator's
 * `rateLimit` (its configuration) sets its own rate or burst; what it leaves out is the gateway's. Both
 * are for all gateway pods together: this pod keeps its `share()` of them (`rateLimitForShare`), read on
 * every request so a rebalance applies at once.
 */
export function rateLimitMiddleware(config: RateLimitConfig, clock: Clock, share: () => number): RequestHandler {
  const limiter = new TokenBucketLimiter(config, () => clock.now().getTime());
  return (_req, res, next) => {
    const operator = callerOf(res);
    refuseOverLimit(limiter.take(operator.id, rateLimitForShare({ ...config, ...operator.rateLimit }, share())));
    next();
  };
}

/**
 * A request without valid credentials (no operator named it: a wrong token, the docs, the probes, an
 * unknown path) counts against its client address; past the limit it is 429 RATE_LIMITED with
 * Retry-After instead of what it would have been. Without a config nothing is counted.
 */
export function unauthenticatedRateLimit(config: RateLimitConfig | undefined, clock: Clock): (req: Request) => void {
  if (config === undefined) return () => undefined;
  const limiter = new TokenBucketLimiter(config, () => clock.now().getTime());
  return (req) => refuseOverLimit(limiter.take(clientAddressKey(req)));
}
