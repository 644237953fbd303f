import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { isWrongExpectedRevision } from '@reelstream/platform-ports';
import { DuplicateEventIdError } from '../src/index.js';
import { TempStores, event } from './temp-store.js';

const stores = new TempStores();
afterEach(() => stores.closeAll());
afterAll(() => stores.dispose());

describe('group commit', () => {
  it('writes 50 concurrent appends of one turn in one transaction', async () => {
    const store = stores.open();
    const before = store.commitStats;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.append(`cart-${i}`, [event(i)], { expectedRevision: 'no_stream' })),
    );
    expect(results.every((r) => r.nextExpectedRevision === 0)).toBe(true);
    expect(new Set(results.map((r) => r.position)).size).toBe(50);
    const after = store.commitStats;
    expect(after.transactions - before.transactions).toBe(1);
    expect(after.appends - before.appends).toBe(50);
  });

  it('keeps 50 looping writers at a few commits per round, not one per append', async () => {
    const store = stores.open();
    const before = store.commitStats;
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        let expected: number | 'no_stream' = 'no_stream';
        for (let round = 0; round < 10; round++) {
          expected = (await store.append(`loop-${i}`, [event(round)], { expectedRevision: expected }))
            .nextExpectedRevision;
        }
      }),
    );
    const after = store.commitStats;
    expect(after.appends - before.appends).toBe(500);
    expect(after.transactions - before.transactions).toBeLessThanOrEqual(20);
  });

  it('bounds a batch by maxBatchAppends and writes the rest in following transactions', async () => {
    const store = stores.open({ maxBatchAppends: 10 });
    const before = store.commitStats;
    await Promise.all(
      Array.from({ length: 35 }, (_, i) => store.append(`bounded-${i}`, [event(i)], { expectedRevision: 'no_stream' })),
    );
    expect(store.commitStats.transactions - before.transactions).toBe(4);
  });

  it('fails only the conflicting appends of a batch; the others commit', async () => {
    const store = stores.open();
    const taken = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
    await store.append('order-1', [event()], { expectedRevision: 'no_stream' });
    await store.append('order-2', [{ eventId: taken, ...event() }], { expectedRevision: 'no_stream' });
    const before = store.commitStats;
    const outcomes = await Promise.allSettled([
      store.append('order-1', [event(1)], { expectedRevision: 0 }),
      store.append('order-1', [event(2)], { expectedRevision: 0 }), // stale: the append above got revision 1
      store.append('order-3', [event(), { eventId: taken, ...event() }, event()], { expectedRevision: 'no_stream' }), // clash mid-way
      store.append('order-4', [event(), event()], { expectedRevision: 'no_stream' }),
    ]);
    expect(store.commitStats.transactions - before.transactions).toBe(1);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(isWrongExpectedRevision((outcomes[1] as PromiseRejectedResult).reason)).toBe(true);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventIdError);
    // The clashing append left nothing behind, not even its first event.
    expect(await store.readStream('order-3')).toEqual([]);
    expect(await store.streamRevision('order-1')).toBe(1);
    expect(await store.streamRevision('order-4')).toBe(1);
  });

  it('settles a caller only after COMMIT: another connection already sees the event', async () => {
    const store = stores.open();
    const other = new Database(store.database.name, { readonly: true });
    try {
      const seen = await store
        .append('visible-1', [event()], { expectedRevision: 'no_stream' })
        .then(() => other.prepare('SELECT count(*) FROM es_events WHERE stream_id = ?').pluck().get('visible-1'));
      expect(seen).toBe(1);
    } finally {
      other.close();
    }
  });

  it('rejects every caller of a batch whose transaction fails (write lock held past busy_timeout), then recovers', async () => {
    const store = stores.open({ busyTimeoutMs: 50 });
    const blocker = new Database(store.database.name);
    blocker.exec('BEGIN IMMEDIATE');
    try {
      const outcomes = await Promise.allSettled([
        store.append('busy-1', [event()], { expectedRevision: 'no_stream' }),
        store.append('busy-2', [event()], { expectedRevision: 'any' }),
        store.append('busy-3', [event()], { expectedRevision: 'no_stream' }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    expect(await store.readStream('busy-1')).toEqual([]);
    expect((await store.append('busy-1', [event()], { expectedRevision: 'no_stream' })).nextExpectedRevision).toBe(0);
  });

  it('close() writes the appends still queued before closing the file', async () => {
    const store = stores.open({}, 'close-flush.db');
    const pending = [
      store.append('late-1', [event()], { expectedRevision: 'no_stream' }),
      store.append('late-2', [event()], { expectedRevision: 'no_stream' }),
    ];
    await store.close();
    await expect(Promise.all(pending)).resolves.toHaveLength(2);
    const reopened = stores.open({}, 'close-flush.db');
    expect(await reopened.streamRevision('late-1')).toBe(0);
    expect(await reopened.streamRevision('late-2')).toBe(0);
  });
});
