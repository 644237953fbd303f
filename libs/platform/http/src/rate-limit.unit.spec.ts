import { describe, expect, it } from '@jest/globals';
import { clientAddressKey, TokenBucketLimiter } from './rate-limit.js';

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

  it('keeps at most maxKeys buckets, dropping the least recently used', () => {
    const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 1 }, () => 0, 2);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('b').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('c').allowed).toBe(true);
    expect(limiter.size).toBe(2);
    // b was the least recently used: it went, and comes back full; a was kept, still empty
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });
});

describe('clientAddressKey', () => {
  const keyOf = (ip: string) => clientAddressKey({ ip, socket: {} });

  it('keys an IPv4 address by itself, also when seen as IPv6', () => {
    expect(keyOf('203.0.113.7')).toBe('address:203.0.113.7');
    expect(keyOf('::ffff:203.0.113.7')).toBe('address:203.0.113.7');
    expect(keyOf('203.0.113.8')).not.toBe(keyOf('203.0.113.7'));
  });

  it('keys an IPv6 address by its /64', () => {
    expect(keyOf('2001:db8:1:2::5')).toBe('address:2001:db8:1:2::/64');
    expect(keyOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(keyOf('2001:db8:1:2::5'));
    expect(keyOf('2001:db8:1:3::5')).not.toBe(keyOf('2001:db8:1:2::5'));
    expect(keyOf('::1')).toBe('address:0:0:0:0::/64');
  });

  it("takes the socket's peer when express gave no ip", () => {
    expect(clientAddressKey({ socket: { remoteAddress: '198.51.100.1' } })).toBe('address:198.51.100.1');
  });
});
