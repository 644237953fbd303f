import { describe, expect, it } from '@jest/globals';
import { TokenBucketLimiter } from './rate-limit.js';

describe('TokenBucketLimiter', () => {
  it('allows the burst at once, then one request per refilled token', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter({ perSecond: 10, burst: 5 }, () => now);
    for (let i = 0; i < 5; i++) expect(limiter.take('a')).toEqual({ allowed: true });
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now += 99;
    expect(limiter.take('a').allowed).toBe(false);
    now += 1;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('never holds more than the burst, however long it idles', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter({ perSecond: 100, burst: 3 }, () => now);
    now += 3_600_000;
    const allowed = Array.from({ length: 10 }, () => limiter.take('a').allowed).filter(Boolean);
    expect(allowed).toHaveLength(3);
  });

  it('says in whole seconds, rounded up, when the next token comes', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter({ perSecond: 0.25, burst: 1 }, () => now);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 4 });
    now += 1_000;
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 3 });
  });

  it('keeps one bucket per key', () => {
    const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 1 }, () => 0);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('does not refill when the clock goes backwards', () => {
    let now = 10_000;
    const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 1 }, () => now);
    expect(limiter.take('a').allowed).toBe(true);
    now = 0;
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('refuses a configuration that would block everything', () => {
    expect(() => new TokenBucketLimiter({ perSecond: 0, burst: 1 }, () => 0)).toThrow(RangeError);
    expect(() => new TokenBucketLimiter({ perSecond: 1, burst: 0 }, () => 0)).toThrow(RangeError);
  });
});
