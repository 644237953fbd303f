/**
 * Token-bucket rate limits for the services' HTTP APIs: the gateway's per operator and per client
 * address, the game-server's per player and per client address. Over a limit is
 * `429 RATE_LIMITED` in the error envelope with `Retry-After` (decisions.md D16).
 */
import { isIPv6 } from 'node:net';
import { RefusedError } from '@reelstream/contracts';

export interface RateLimitConfig {
  /** Tokens added per second. */
  perSecond: number;
  /** Bucket size: requests that may arrive at once. */
  burst: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Buckets kept at most: past it the least recently used goes (it comes back full). Bounds the
 * memory a caller cycling through client addresses can take; a real caller is used more recently.
 */
const DEFAULT_MAX_KEYS = 100_000;

/**
 * Token buckets in memory, one per key: `burst` tokens, refilled at `perSecond`. Each process
 * limits on its own; behind N replicas a caller gets up to N times the rate, which is why the
 * limit protects the platform rather than metering the caller.
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedMs: number }>();

  constructor(
    private readonly config: RateLimitConfig,
    private readonly nowMs: () => number,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
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

  /** Buckets held now. */
  get size(): number {
    return this.buckets.size;
  }

  private refilled(key: string, config: RateLimitConfig): { tokens: number; updatedMs: number } {
    const now = this.nowMs();
    const bucket = this.buckets.get(key) ?? { tokens: config.burst, updatedMs: now };
    const elapsedMs = Math.max(0, now - bucket.updatedMs);
    bucket.tokens = Math.min(config.burst, bucket.tokens + (elapsedMs * config.perSecond) / 1000);
    bucket.updatedMs = now;
    // Re-inserted, so the map's order is the order of use and its first key the least recently used.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    for (const oldest of this.buckets.keys()) {
      if (this.buckets.size <= this.maxKeys) break;
      this.buckets.delete(oldest);
    }
    return bucket;
  }
}

/** Throws `429 RATE_LIMITED` with `Retry-After` when `decision` refused. */
export function refuseOverLimit(decision: RateDecision): void {
  if (!decision.allowed)
    throw new RefusedError('RATE_LIMITED', undefined, { retryAfterSeconds: decision.retryAfterSeconds });
}

/**
 * The key of a request's client address: `req.ip` (express, which follows `X-Forwarded-For` only as
 * far as its `trust proxy` setting allows), else the socket's peer. An IPv4 address seen as IPv6
 * (`::ffff:a.b.c.d`) is the IPv4 address; an IPv6 address counts by its /64, the block one host
 * usually holds, so a caller cannot take a fresh bucket per address of its own network.
 */
export function clientAddressKey(request: { ip?: string | undefined; socket: { remoteAddress?: string | undefined } }) {
  const address = request.ip ?? request.socket.remoteAddress ?? 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return `address:${mapped[1]}`;
  if (!isIPv6(address)) return `address:${address}`;
  return `address:${ipv6Prefix64(address)}::/64`;
}

/** The first four groups of an IPv6 address, `::` expanded. */
function ipv6Prefix64(address: string): string {
  const [head = '', tail] = address.toLowerCase().split('%')[0]?.split('::') ?? [''];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':');
}
