/** The latency histogram: exact nearest-rank percentiles below 10 s, within 1 % above, bounded bins. */
import { describe, expect, it } from '@jest/globals';
import { LatencyHistogram } from './latency-histogram.js';
import { percentile } from './wallet-delivery.js';

/** mulberry32: the same seed draws the same numbers. */
function mulberry32ForTest(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('LatencyHistogram', () => {
  it('gives the exact nearest-rank percentiles of latencies under 10 s', () => {
    const random = mulberry32ForTest(7);
    const values = Array.from({ length: 5_000 }, () => Math.floor(random() * random() * 9_999));
    const histogram = new LatencyHistogram();
    for (const value of values) histogram.add(value);
    const sorted = [...values].sort((a, b) => a - b);
    for (const p of [1, 50, 95, 99, 100]) expect(histogram.percentile(p)).toBe(percentile(sorted, p));
    expect(histogram.max).toBe(sorted.at(-1));
    expect(histogram.countAbove(3_000)).toBe(values.filter((value) => value > 3_000).length);
  });

  it('stays within 1 % above 10 s, keeps the maximum exact and its bins bounded', () => {
    const random = mulberry32ForTest(11);
    const values = Array.from({ length: 20_000 }, () => 10_000 + Math.floor(random() * 3_600_000));
    const histogram = new LatencyHistogram();
    for (const value of values) histogram.add(value);
    const sorted = [...values].sort((a, b) => a - b);
    for (const p of [50, 95, 99]) {
      const exact = percentile(sorted, p) ?? 0;
      expect(Math.abs((histogram.percentile(p) ?? 0) - exact) / exact).toBeLessThanOrEqual(0.01);
    }
    expect(histogram.max).toBe(sorted.at(-1));
    // ln(361) / ln(1.02) ≈ 298 bins from 10 s to an hour, however many values.
    expect(histogram.size).toBeLessThanOrEqual(300);
  });

  it('is empty before the first value', () => {
    expect(new LatencyHistogram().percentile(50)).toBeNull();
  });
});
