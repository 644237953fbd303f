import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import type { RecordedEvent } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { ChangeFeed } from '../src/change-feed.js';
import { CorruptEventError, DuplicateEventIdError, EventStoreClosedError, SqliteEventStore } from '../src/index.js';
import { TempStores, event } from './temp-store.js';

const stores = new TempStores();
afterEach(() => stores.closeAll());
afterAll(() => stores.dispose());

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('SqliteEventStore: the file', () => {
  it('uses WAL with synchronous=FULL and a 5 s busy timeout by default', () => {
    const { database } = stores.open();
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(database.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('takes synchronous=NORMAL and another busy timeout only when asked', () => {
    const { database } = stores.open({ synchronous: 'NORMAL', busyTimeoutMs: 1234 }, 'normal.db');
    expect(database.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(database.pragma('busy_timeout', { simple: true })).toBe(1234);
  });

  it('names its tables and indexes es_* so it can share the file with the message bus', () => {
    const { database } = stores.open();
    const names = database
      .prepare("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[];
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !name.startsWith('es_'))).toEqual([]);
  });

  it('opens an existing file again without touching its events', async () => {
    const first = stores.open({}, 'reopen.db');
    await first.append('order-1', [event()], { expectedRevision: 'no_stream' });
    await first.close();
    const second = stores.open({}, 'reopen.db');
    expect(await second.streamRevision('order-1')).toBe(0);
  });
});

describe('SqliteEventStore: event ids', () => {
  it('refuses an event id already stored in another stream', async () => {
    const store = stores.open();
    const id = randomUUID();
    await store.append('order-1', [{ eventId: id, ...event() }], { expectedRevision: 'no_stream' });
    const error = await rejection(
      store.append('order-2', [{ eventId: id, ...event() }], { expectedRevision: 'no_stream' }),
    );
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect(error).toMatchObject({ eventId: id, streamId: 'order-2', existingStreamId: 'order-1', existingRevision: 0 });
    expect(await store.readStream('order-2')).toEqual([]);
  });

  it('refuses an event id reused at the current revision of its own stream (no second copy)', async () => {
    const store = stores.open();
    const id = randomUUID();
    await store.append('order-1', [{ eventId: id, ...event() }], { expectedRevision: 'no_stream' });
    expect(
      await rejection(store.append('order-1', [{ eventId: id, ...event() }], { expectedRevision: 0 })),
    ).toBeInstanceOf(DuplicateEventIdError);
    expect(await store.readStream('order-1')).toHaveLength(1);
  });

  it("returns the original result for a retried 'any' append whose ids are already in the stream", async () => {
    const store = stores.open();
    const retried = { eventId: randomUUID(), ...event(1) };
    const batch = [retried, { eventId: randomUUID(), ...event(2) }];
    await store.append('order-1', [event()], { expectedRevision: 'any' });
    const first = await store.append('order-1', batch, { expectedRevision: 'any' });
    await store.append('order-1', [event()], { expectedRevision: 'any' });
    expect(await store.append('order-1', batch, { expectedRevision: 'any' })).toEqual(first);
    expect(await store.readStream('order-1')).toHaveLength(4);
    // Only part of the ids match: that is not a retry.
    const partial = [retried, { eventId: randomUUID(), ...event(3) }];
    expect(await rejection(store.append('order-1', partial, { expectedRevision: 'any' }))).toBeInstanceOf(
      DuplicateEventIdError,
    );
  });

  it('stores event ids in lower case and refuses ids that are not UUIDs, writing nothing', async () => {
    const store = stores.open();
    const upper = randomUUID().toUpperCase();
    await store.append('order-1', [{ eventId: upper, ...event() }], { expectedRevision: 'no_stream' });
    expect((await store.readStream('order-1'))[0]?.eventId).toBe(upper.toLowerCase());
    expect(
      await rejection(store.append('order-2', [{ eventId: 'not-a-uuid', ...event() }], { expectedRevision: 'any' })),
    ).toBeInstanceOf(TypeError);
    expect(
      await rejection(store.append('order-2', [{ type: 'X', data: undefined }], { expectedRevision: 'any' })),
    ).toBeInstanceOf(TypeError);
    expect(await rejection(store.append('', [event()], { expectedRevision: 'any' }))).toBeInstanceOf(TypeError);
    expect(await rejection(store.append('order-2', [event()], { expectedRevision: -1 }))).toBeInstanceOf(TypeError);
    expect(await store.readStream('order-2')).toEqual([]);
  });

  it('snapshots the data at append time: mutating the object afterwards changes nothing', async () => {
    const store = stores.open();
    const data = { amount: 100 };
    const appended = store.append('order-1', [{ type: 'Paid', data }], { expectedRevision: 'no_stream' });
    data.amount = 999;
    await appended;
    expect((await store.readStream('order-1'))[0]?.data).toEqual({ amount: 100 });
  });
});

describe('SqliteEventStore: reading', () => {
  it('filters $all by a prefix without a category separator too', async () => {
    const store = stores.open();
    await store.append('alpha', [event(1)], { expectedRevision: 'no_stream' });
    await store.append('alphabet-1', [event(2)], { expectedRevision: 'no_stream' });
    await store.append('beta-1', [event(3)], { expectedRevision: 'no_stream' });
    const read = await store.readAll({ filter: { streamPrefixes: ['alpha'] } });
    expect(read.map((e) => e.streamId)).toEqual(['alpha', 'alphabet-1']);
    expect(await store.readAll({ filter: { streamPrefixes: [] } })).toEqual([]);
  });

  it('refuses a position that is not one of its own', async () => {
    const store = stores.open();
    expect(
      await rejection(store.readAll({ fromPosition: '00000000000000000001-00000000000000000001' })),
    ).toBeInstanceOf(RangeError);
    expect(() => store.comparePositions('1', 'x')).toThrow(RangeError);
    expect(store.comparePositions('9', '10')).toBeLessThan(0);
  });

  it('reports a damaged row with its position instead of a bare JSON error', async () => {
    const store = stores.open();
    await store.append('order-1', [event()], { expectedRevision: 'no_stream' });
    const { position } = await store.append('order-1', [event()], { expectedRevision: 0 });
    store.database.prepare("UPDATE es_events SET data = '{broken' WHERE position = ?").run(Number(position));
    const error = await rejection(store.readStream('order-1'));
    expect(error).toBeInstanceOf(CorruptEventError);
    expect((error as Error).message).toContain(`position ${position}`);
    store.database
      .prepare("UPDATE es_events SET data = '{}', metadata = '[1]' WHERE position = ?")
      .run(Number(position));
    expect(await rejection(store.readAll())).toBeInstanceOf(CorruptEventError);
  });
});

describe('SqliteEventStore: subscriptions and closing', () => {
  it('wakes a subscriber of another instance in this process at once, without waiting for a poll', async () => {
    const reader = stores.open({ pollIntervalMs: 60_000 }, 'shared.db');
    const writer = stores.open({}, 'shared.db');
    const waits = jest.spyOn(ChangeFeed.prototype, 'wait');
    try {
      const subscription = reader.subscribeToAll({ from: 'end' });
      const iterator = subscription[Symbol.asyncIterator]();
      const next = iterator.next();
      // The subscriber read nothing and waits for a commit: the append must wake it, not its first read or a poll.
      await eventually(() => {
        if (waits.mock.calls.length === 0) throw new Error('waited for the subscriber to wait on its change feed');
      });
      const appendedAt = Date.now();
      await writer.append('order-1', [event()], { expectedRevision: 'no_stream' });
      const result = await next;
      expect(result.done).toBe(false);
      expect((result.value as RecordedEvent).streamId).toBe('order-1');
      expect(Date.now() - appendedAt).toBeLessThan(1_000);
      await subscription.close();
    } finally {
      waits.mockRestore();
    }
  });

  it('ends its subscriptions when the store closes, and refuses work afterwards', async () => {
    const store = stores.open();
    const subscription = store.subscribeToAll({ from: 'start' });
    const pending = subscription[Symbol.asyncIterator]().next();
    await store.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await rejection(store.append('order-1', [event()], { expectedRevision: 'any' }))).toBeInstanceOf(
      EventStoreClosedError,
    );
    expect(await rejection(store.readAll())).toBeInstanceOf(EventStoreClosedError);
    expect(() => store.subscribeToAll({ from: 'start' })).toThrow(EventStoreClosedError);
  });

  it('delivers an event appended by its own instance while the consumer holds a checkpoint it has not answered', async () => {
    // A filtered subscriber (an outbox) busy with its last event: an event of another stream moves the head, the
    // subscription hands a checkpoint there, and the consumer, still busy, has not asked for the next item when the
    // event it waits for is appended by the same instance. The poll cannot see a commit of its own connection.
    const store = stores.open({ pollIntervalMs: 5 });
    const subscription = store.subscribeToAll({ from: 'start', filter: { streamPrefixes: ['bonus-'] } });
    const items = subscription.withCheckpoints()[Symbol.asyncIterator]();
    await store.append('bonus-1', [event(1)], { expectedRevision: 'no_stream' });
    expect((await items.next()).value).toMatchObject({ kind: 'event', event: { streamId: 'bonus-1' } });
    const waiting = items.next();
    await store.append('round-1', [event(2)], { expectedRevision: 'no_stream' });
    expect((await waiting).value).toEqual({ kind: 'checkpoint', position: expect.any(String) });
    // Only now, the consumer still busy elsewhere: the event it must get.
    await store.append('bonus-1', [event(3)], { expectedRevision: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const next = await Promise.race([
      items.next(),
      new Promise((resolve) => setTimeout(() => resolve({ nothing: 'within 2 s' }), 2_000)),
    ]);
    expect(next).toMatchObject({ done: false, value: { kind: 'event', event: { streamId: 'bonus-1', revision: 1 } } });
    await subscription.close();
  });

  it('reads pages lazily: events appended while the consumer is busy still arrive in order', async () => {
    const store = stores.open();
    for (let page = 0; page < 6; page++) {
      const events = Array.from({ length: 100 }, (_, i) => event(page * 100 + i));
      await store.append('bulk-1', events, { expectedRevision: page === 0 ? 'no_stream' : page * 100 - 1 });
    }
    const subscription = store.subscribeToAll({ from: 'start' });
    const seen: number[] = [];
    for await (const e of subscription) {
      seen.push(e.revision);
      if (seen.length === 300) await store.append('bulk-1', [event(600)], { expectedRevision: 599 });
      if (seen.length === 601) break;
    }
    expect(seen).toEqual(Array.from({ length: 601 }, (_, i) => i));
  });
});

describe('SqliteEventStore: in-memory', () => {
  it('works on :memory: for quick tests', async () => {
    const store = SqliteEventStore.open(':memory:');
    await store.append('order-1', [event()], { expectedRevision: 'no_stream' });
    expect(await store.readAll()).toHaveLength(1);
    await store.close();
  });
});
