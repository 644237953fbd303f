import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { TimeOrderedUuids } from '../src/event-ids.js';
import { TempStores, event } from './temp-store.js';

const stores = new TempStores();
afterEach(() => stores.closeAll());
afterAll(() => stores.dispose());

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisecondsOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('event ids the SQLite store draws itself', () => {
  it('are UUIDv7 carrying the clock, growing within one millisecond, past 4,096 in one millisecond and when the clock steps back', () => {
    let now = Date.UTC(2026, 10, 27, 6, 0, 0);
    const ids = new TimeOrderedUuids(() => now);
    const drawn = Array.from({ length: 5_000 }, () => ids.next());
    now -= 1_000;
    drawn.push(ids.next(), ids.next());
    now += 60_000;
    drawn.push(ids.next());

    expect(drawn.every((id) => V7.test(id))).toBe(true);
    expect(new Set(drawn).size).toBe(drawn.length);
    expect([...drawn].sort()).toEqual(drawn);
    expect(millisecondsOf(drawn[0] as string)).toBe(Date.UTC(2026, 10, 27, 6, 0, 0));
    // 4,096 ids per millisecond: the 4,097th borrows the next one.
    expect(millisecondsOf(drawn[4_096] as string)).toBe(Date.UTC(2026, 10, 27, 6, 0, 0) + 1);
    expect(millisecondsOf(drawn.at(-1) as string)).toBe(now);
  });

  it('are given to appended events without an id, in append order; a caller id is kept as given (lower case)', async () => {
    const store = stores.open();
    for (let i = 0; i < 3; i++)
      await store.append(`order-${i}`, [event(i), event(i + 10)], { expectedRevision: 'any' });
    const callerId = 'C0FFEE00-0000-4000-8000-000000000001';
    await store.append('order-9', [{ ...event(9), eventId: callerId }], { expectedRevision: 'any' });

    const all = await store.readAll();
    const generated = all.slice(0, 6).map((recorded) => recorded.eventId);
    expect(generated.every((id) => V7.test(id))).toBe(true);
    expect([...generated].sort()).toEqual(generated);
    expect(all[6]?.eventId).toBe(callerId.toLowerCase());
  });
});
