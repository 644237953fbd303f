/**
 * `rateLimitForShare` (docs/adr/0042-gateway-limits-divided-by-a-group-of-its-own.md): a limit meant
 * for all gateway pods, as one pod with a share of the `gateway.limits` partitions keeps it.
 */
import { describe, expect, it } from '@jest/globals';
import { rateLimitForShare } from '../src/http/limit-share.js';

const LIMIT = { perSecond: 50, burst: 100 };
const PARTITIONS = 240;

/** The parts pods holding these partition counts keep. */
const partsOf = (partitions: readonly number[]) =>
  partitions.map((held) => rateLimitForShare(LIMIT, held / PARTITIONS));
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

describe('rateLimitForShare', () => {
  it('splits a limit evenly among pods whose count divides 240, adding up to the limit', () => {
    const parts = partsOf([80, 80, 80]);
    expect(parts.map((part) => part.burst)).toEqual([34, 34, 34]);
    expect(sum(parts.map((part) => part.perSecond))).toBeCloseTo(50, 10);
    expect(partsOf([60, 60, 60, 60]).map((part) => part.burst)).toEqual([25, 25, 25, 25]);
  });

  it('rounds each bucket up, so the pods together allow at most one request more per pod', () => {
    // 7 pods: 240 = 2 × 35 + 5 × 34.
    const parts = partsOf([35, 35, 34, 34, 34, 34, 34]);
    const buckets = sum(parts.map((part) => part.burst));
    expect(buckets).toBeGreaterThanOrEqual(LIMIT.burst);
    expect(buckets).toBeLessThanOrEqual(LIMIT.burst + parts.length - 1);
    expect(sum(parts.map((part) => part.perSecond))).toBeCloseTo(50, 10);
  });

  it('keeps the whole limit for a lone pod', () => {
    expect(rateLimitForShare(LIMIT, 1)).toEqual(LIMIT);
    expect(rateLimitForShare(LIMIT, 1.5)).toEqual(LIMIT);
  });

  it('keeps one request and one partition of the rate before the first join or without a share', () => {
    for (const share of [0, -0.5, Number.NaN])
      expect(rateLimitForShare(LIMIT, share)).toEqual({ perSecond: 50 / PARTITIONS, burst: 1 });
  });

  it('never gives a bucket below one request, however small the limit', () => {
    expect(rateLimitForShare({ perSecond: 1, burst: 1 }, 1 / 32)).toEqual({ perSecond: 1 / 32, burst: 1 });
  });
});
