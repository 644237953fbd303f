import { describe, expect, it } from '@jest/globals';
import { ID_EPOCH_MS, MAX_WORKER_ID, TimeOrderedIdGenerator, decodeId } from './time-ordered-id.js';

describe('TimeOrderedIdGenerator', () => {
  it('draws 1,000,000 ids on 8 concurrent workers: unique, monotonic per worker, never above 2^53 − 1', () => {
    const workers = Array.from({ length: 8 }, (_, i) => new TimeOrderedIdGenerator(i * 4 + 3));
    const last = new Array<number>(workers.length).fill(-1);
    const seen = new Set<number>();
    let monotonic = true;
    let max = 0;
    for (let draw = 0; draw < 1_000_000; draw++) {
      const w = draw % workers.length;
      const id = (workers[w] as TimeOrderedIdGenerator).next();
      if (id <= (last[w] as number)) monotonic = false;
      last[w] = id;
      if (id > max) max = id;
      seen.add(id);
    }
    expect(seen.size).toBe(1_000_000);
    expect(monotonic).toBe(true);
    expect(max).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
  });

  it('encodes time, worker and sequence, and ids of later milliseconds sort later', () => {
    let now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const ids = new TimeOrderedIdGenerator(17, () => now);
    const first = ids.next();
    const second = ids.next();
    now += 1;
    const third = ids.next();
    expect(decodeId(first)).toEqual({ time: new Date(Date.UTC(2026, 10, 22, 12, 0, 0)), workerId: 17, sequence: 0 });
    expect(decodeId(second).sequence).toBe(1);
    expect(decodeId(third)).toEqual({ time: new Date(now), workerId: 17, sequence: 0 });
    expect(first < second && second < third).toBe(true);
  });

  it('waits for the next millisecond when 128 ids were drawn in one', () => {
    let reads = 0;
    const start = Date.UTC(2026, 0, 1);
    // The clock stays on one millisecond for 140 reads, then moves on.
    const ids = new TimeOrderedIdGenerator(1, () => start + (reads++ < 140 ? 0 : 1));
    const drawn = Array.from({ length: 129 }, () => ids.next());
    expect(new Set(drawn).size).toBe(129);
    expect(decodeId(drawn[127] as number)).toMatchObject({ sequence: 127, time: new Date(start) });
    expect(decodeId(drawn[128] as number)).toMatchObject({ sequence: 0, time: new Date(start + 1) });
  });

  it('keeps growing when the clock steps back', () => {
    let now = Date.UTC(2026, 0, 1, 0, 0, 10);
    const ids = new TimeOrderedIdGenerator(2, () => now);
    const before = ids.next();
    now -= 5_000;
    const after = ids.next();
    expect(after).toBeGreaterThan(before);
    expect(decodeId(after).time).toEqual(decodeId(before).time);
  });

  it('refuses worker ids outside 0–31 and clocks before the epoch', () => {
    expect(() => new TimeOrderedIdGenerator(MAX_WORKER_ID + 1)).toThrow(RangeError);
    expect(() => new TimeOrderedIdGenerator(-1)).toThrow(RangeError);
    expect(() => new TimeOrderedIdGenerator(1.5)).toThrow(RangeError);
    expect(() => new TimeOrderedIdGenerator(0, () => ID_EPOCH_MS - 1).next()).toThrow(/before the id epoch/);
  });
});
