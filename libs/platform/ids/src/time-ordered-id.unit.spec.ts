import { describe, expect, it } from '@jest/globals';
import {
  ID_EPOCH_MS,
  ID_UNIT_MS,
  MAX_ID_UNIT,
  MAX_LEAD_UNITS,
  MAX_WORKER_ID,
  TimeOrderedIdGenerator,
  decodeId,
} from './time-ordered-id.js';

/** A clock the test moves; waiting moves it too, and is counted. */
function testClock(startMs: number) {
  const clock = {
    now: startMs,
    slept: 0,
    nowMs: () => clock.now,
    sleepMs: (ms: number) => {
      clock.slept += ms;
      clock.now += ms;
    },
  };
  return clock;
}

const unitOf = (id: number) => (decodeId(id).time.getTime() - ID_EPOCH_MS) / ID_UNIT_MS;
const START = Date.UTC(2026, 10, 22, 12, 0, 0);
/** A generator whose start-up lead (see the restart test) has passed, so its next id is in the clock's unit. */
function settled(workerId: number, clock: ReturnType<typeof testClock>): TimeOrderedIdGenerator {
  const ids = new TimeOrderedIdGenerator(workerId, clock);
  clock.now += (MAX_LEAD_UNITS + 1) * ID_UNIT_MS;
  return ids;
}

describe('TimeOrderedIdGenerator', () => {
  it('draws unique ids on all 1,024 workers at once, 300 each in bursts beyond a unit, growing per worker', () => {
    const clock = testClock(START);
    const workers = Array.from({ length: MAX_WORKER_ID + 1 }, (_, w) => new TimeOrderedIdGenerator(w, clock));
    clock.now += (MAX_LEAD_UNITS + 1) * ID_UNIT_MS;
    const seen = new Set<number>();
    let growing = true;
    let max = 0;
    for (const ids of workers) {
      let last = -1;
      for (let draw = 0; draw < 300; draw++) {
        const id = ids.next();
        growing &&= id > last;
        last = id;
        max = Math.max(max, id);
        seen.add(id);
      }
    }
    expect(seen.size).toBe(300 * workers.length);
    expect(growing).toBe(true);
    expect(max).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    // 300 ids in one unit are 5 units of 64: borrowed from the next four, no waiting.
    expect(clock.slept).toBe(0);
  });

  it('encodes the 10 ms unit, worker and sequence, and ids of later units sort later', () => {
    const clock = testClock(START);
    const ids = settled(517, clock);
    const first = ids.next();
    const second = ids.next();
    clock.now += ID_UNIT_MS;
    const third = ids.next();
    const unitStart = new Date(clock.now - ID_UNIT_MS);
    expect(decodeId(first)).toEqual({ time: unitStart, workerId: 517, sequence: 0 });
    expect(decodeId(second)).toEqual({ time: unitStart, workerId: 517, sequence: 1 });
    expect(decodeId(third)).toEqual({ time: new Date(clock.now), workerId: 517, sequence: 0 });
    expect(first < second && second < third).toBe(true);
  });

  it('borrows the next units when 64 ids were drawn in one, up to one second ahead, and only then waits', () => {
    const clock = testClock(START);
    const ids = settled(1, clock);
    const clockUnit = (clock.now - ID_EPOCH_MS) / ID_UNIT_MS;
    const withinLead = Array.from({ length: 64 * (MAX_LEAD_UNITS + 1) }, () => ids.next());
    expect(new Set(withinLead).size).toBe(withinLead.length);
    expect(decodeId(withinLead[63] as number)).toMatchObject({ sequence: 63 });
    expect(unitOf(withinLead[64] as number)).toBe(clockUnit + 1);
    expect(unitOf(withinLead.at(-1) as number)).toBe(clockUnit + MAX_LEAD_UNITS);
    expect(clock.slept).toBe(0);
    // The lead is spent: the next id waits one unit for the clock, and stays a lead ahead of it.
    const waited = ids.next();
    expect(clock.slept).toBe(ID_UNIT_MS);
    expect(unitOf(waited)).toBe(clockUnit + MAX_LEAD_UNITS + 1);
    expect(waited).toBeGreaterThan(withinLead.at(-1) as number);
  });

  it('repeats no id of a predecessor that borrowed a full lead, when it restarts in the same millisecond', () => {
    const clock = testClock(START);
    const before = settled(9, clock);
    const drawnBefore = Array.from({ length: 64 * (MAX_LEAD_UNITS + 1) }, () => before.next());
    const restarted = new TimeOrderedIdGenerator(9, clock);
    const slept = clock.slept;
    const drawnAfter = Array.from({ length: 200 }, () => restarted.next());
    expect(Math.min(...drawnAfter)).toBeGreaterThan(Math.max(...drawnBefore));
    // Its first units are the lead its predecessor may have used, so it draws them at the clock's pace.
    expect(clock.slept - slept).toBeGreaterThan(0);
  });

  it('keeps growing when the clock steps back, held at the furthest time the clock showed', () => {
    const clock = testClock(START);
    const ids = settled(2, clock);
    const before = ids.next();
    const furthest = unitOf(before);
    clock.now -= 5_000;
    // The rest of its unit and a full lead of borrowed ones, without waiting.
    const after = Array.from({ length: 63 + 64 * MAX_LEAD_UNITS }, () => ids.next());
    expect(after[0]).toBeGreaterThan(before);
    expect(new Set(after).size).toBe(after.length);
    expect(Math.max(...after.map(unitOf))).toBe(furthest + MAX_LEAD_UNITS);
    expect(clock.slept).toBe(0);
    // Past the lead it waits for the clock to come back: a 5 s step back costs 5 s of waiting, once.
    const waited = ids.next();
    expect(waited).toBeGreaterThan(after.at(-1) as number);
    expect(clock.slept).toBe(5_000 + ID_UNIT_MS);
  });

  it('draws ids above every id of the former layout (41 bits of ms, 5 of worker, 7 of sequence) drawn up to now', () => {
    // The former largest id of a millisecond; a rolling update runs both layouts at once, and the
    // operator's wallet keeps the transactionIds of both.
    const formerLargestAt = (ms: number) => (ms - ID_EPOCH_MS) * 2 ** 12 + 2 ** 12 - 1;
    for (const at of [ID_EPOCH_MS + 1_000, START, Date.UTC(2040, 0, 1)]) {
      const clock = testClock(at);
      const first = settled(0, clock).next();
      expect(first).toBeGreaterThan(formerLargestAt(clock.now));
    }
  });

  it('takes the largest worker id and refuses one beyond it, and clocks before the epoch', () => {
    const clock = testClock(START);
    expect(decodeId(settled(MAX_WORKER_ID, clock).next())).toMatchObject({ workerId: 1023, sequence: 0 });
    expect(() => new TimeOrderedIdGenerator(MAX_WORKER_ID + 1)).toThrow(RangeError);
    expect(() => new TimeOrderedIdGenerator(-1)).toThrow(RangeError);
    expect(() => new TimeOrderedIdGenerator(1.5)).toThrow(RangeError);
    expect(() => new TimeOrderedIdGenerator(0, { nowMs: () => ID_EPOCH_MS - 1 })).toThrow(/before the id epoch/);
  });

  it('draws 2^53 − 1 as the last id of the range (July 2068) and refuses to draw past it', () => {
    const clock = testClock(ID_EPOCH_MS + (MAX_ID_UNIT - 1 - MAX_LEAD_UNITS - 1) * ID_UNIT_MS);
    const ids = settled(MAX_WORKER_ID, clock);
    // The last two units: 128 ids.
    const last = Array.from({ length: 128 }, () => ids.next()).at(-1) as number;
    expect(last).toBe(Number.MAX_SAFE_INTEGER);
    expect(decodeId(last)).toEqual({
      time: new Date(Date.UTC(2068, 6, 21, 6, 52, 14, 710)),
      workerId: MAX_WORKER_ID,
      sequence: 63,
    });
    expect(() => ids.next()).toThrow(/exhausted \(July 2068\)/);
  });
});
