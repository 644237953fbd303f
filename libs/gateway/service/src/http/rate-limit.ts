import type { Clock } from '@reelstream/ports';
import type { RequestHandler } from 'express';
import type { RateLimitConfig } from '../config/gateway-env.js';
import { ApiError } from '@reelstream/http';
import { callerOf } from './request-context.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Token buckets in memory, one per key: `burst` tokens, refilled at `perSecond`. Each gateway
 * instance limits on its own; behind N replicas an operator gets up to N times the rate, which
 * is why the limit protects the platform rather than metering the operator.
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedMs: number }>();

  constructor(
    private readonly config: RateLimitConfig,
    private readonly nowMs: () => number,
  ) {
    if (!(config.perSecond > 0) || !(config.burst >= 1))
      throw new RangeError('rate limit needs perSecond > 0 and burst >= 1');
  }

  /**
   * Takes `cost` tokens from `key`'s bucket; `own` overrides the default rate or size for this key
   * (per-operator limits). A cost above the bucket's size is allowed when the bucket is full and
   * leaves it in debt, so nothing is too big to ever pass, and what follows waits for the whole cost.
   */
  take(key: string, own: Partial<RateLimitConfig> = {}, cost = 1): RateDecision {
    const config = { ...this.config, ...own };
    const bucket = this.refilled(key, config);
    const needed = Math.min(cost, config.burst);
    if (bucket.tokens >= needed) {
      bucket.tokens -= cost;
      return { allowed: true };
    }
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((needed - bucket.tokens) / config.perSecond)),
    };
  }

  /** Gives back tokens taken for something that turned out to cost nothing (a replay); never above the bucket's size. */
  giveBack(key: string, tokens: number, own: Partial<RateLimitConfig> = {}): void {
    const config = { ...this.config, ...own };
    const bucket = this.refilled(key, config);
    bucket.tokens = Math.min(config.burst, bucket.tokens + tokens);
  }

  private refilled(key: string, config: RateLimitConfig): { tokens: number; updatedMs: number } {
    const now = this.nowMs();
    const bucket = this.buckets.get(key) ?? { tokens: config.burst, updatedMs: now };
    const elapsedMs = Math.max(0, now - bucket.updatedMs);
    bucket.tokens = Math.min(config.burst, bucket.tokens + (elapsedMs * config.perSecond) / 1000);
    bucket.updatedMs = now;
    this.buckets.set(key, bucket);
    return bucket;
  }
}

/**
 * The budget of campaign players (docs/adr/0014-fair-campaigns-and-campaign-budget.md): per
 * operator, a campaign of N players takes N tokens, refilled at the rate an operator may register
 * bonus calls one by one; the bucket holds one campaign of the largest size.
 */
export const DEFAULT_CAMPAIGN_RATE_LIMIT: RateLimitConfig = { perSecond: 50, burst: 10_000 };

/**
 * 429 RATE_LIMITED with Retry-After once the calling operator's bucket is empty. An operator's
 * `rateLimit` (its configuration) sets its own rate or burst; what it leaves out is the gateway's.
 */
export function rateLimitMiddleware(config: RateLimitConfig, clock: Clock): RequestHandler {
  const limiter = new TokenBucketLimiter(config, () => clock.now().getTime());
  return (_req, res, next) => {
    const operator = callerOf(res);
    const decision = limiter.take(operator.id, operator.rateLimit);
    if (!decision.allowed)
      throw new ApiError('RATE_LIMITED', undefined, undefined, { 'Retry-After': String(decision.retryAfterSeconds) });
    next();
  };
}
