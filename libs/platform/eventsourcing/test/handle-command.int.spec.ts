/**
 * handleCommand against the real embedded SQLite event store. Conflicts are real: another writer
 * appends to the stream between the handler's read and its append (a store wrapper does it right
 * after the read returns), and the store's expected-revision check refuses the stale append.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import type { EventContext } from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import type { EventStore, ReadStreamOptions, RecordedEvent } from '@reelstream/platform-ports';
import {
  commandHandler,
  ConcurrencyExhaustedError,
  deterministicEventId,
  handleCommand,
  type CommandContext,
  type Decider,
  type HandleOptions,
} from '../src/index.js';

/** A seat: taken once; taking it again by the same person is already done, by another is refused. */
type SeatEvent =
  | { type: 'SeatTaken'; data: { by: string } }
  | { type: 'SeatFreed'; data: Record<string, never> }
  | { type: 'Counted'; data: { n: number } };
type SeatCommand = { type: 'Take'; by: string } | { type: 'Count' };
interface SeatState {
  takenBy: string | null;
  count: number;
}
interface Refusal {
  code: 'SEAT_TAKEN';
  by: string;
}

const seat: Decider<SeatCommand, SeatState, SeatEvent, Refusal> = {
  initialState: { takenBy: null, count: 0 },
  decide(command, state) {
    if (command.type === 'Count') return [{ type: 'Counted', data: { n: state.count + 1 } }];
    if (state.takenBy === command.by) return [];
    if (state.takenBy !== null) return { code: 'SEAT_TAKEN', by: state.takenBy };
    return [{ type: 'SeatTaken', data: { by: command.by } }];
  },
  evolve(state, event) {
    if (event.type === 'SeatTaken') return { ...state, takenBy: event.data.by };
    if (event.type === 'SeatFreed') return { ...state, takenBy: null };
    return { ...state, count: event.data.n };
  },
};

const context = (commandId: string): CommandContext => ({
  commandId,
  correlationId: `corr-${commandId}`,
  operatorId: 'demo',
  occurredAt: '2026-11-23T12:00:00.000Z',
});

const options = (commandId: string, extra: Partial<HandleOptions<SeatState, SeatEvent>> = {}) => ({
  context: context(commandId),
  parse: (recorded: RecordedEvent) =>
    ['SeatTaken', 'SeatFreed', 'Counted'].includes(recorded.type) ? (recorded as unknown as SeatEvent) : undefined,
  serialize: (event: SeatEvent, metadata: EventContext) => ({ ...event, metadata: { ...metadata, schemaVersion: 1 } }),
  ...extra,
});

/** The store, with a hook run after each read of a stream returns (another writer slipping in). */
class Interleaved implements EventStore {
  reads = 0;
  /** How many events each read of a stream returned, and from where it read. */
  readLog: { streamId: string; fromRevision: number | undefined; returned: number }[] = [];
  afterRead: (streamId: string, read: number) => Promise<void> = async () => undefined;
  constructor(readonly inner: SqliteEventStore) {}
  append: EventStore['append'] = (...args) => this.inner.append(...args);
  async readStream(streamId: string, readOptions?: ReadStreamOptions): Promise<RecordedEvent[]> {
    const events = await this.inner.readStream(streamId, readOptions);
    this.reads += 1;
    this.readLog.push({ streamId, fromRevision: readOptions?.fromRevision, returned: events.length });
    await this.afterRead(streamId, this.reads);
    return events;
  }
  streamRevision: EventStore['streamRevision'] = (streamId) => this.inner.streamRevision(streamId);
  readAll: EventStore['readAll'] = (readOptions) => this.inner.readAll(readOptions);
  subscribeToAll: EventStore['subscribeToAll'] = (subscribeOptions) => this.inner.subscribeToAll(subscribeOptions);
  comparePositions: EventStore['comparePositions'] = (a, b) => this.inner.comparePositions(a, b);
  close = () => Promise.resolve();
}

const dir = mkdtempSync(join(tmpdir(), 'eventsourcing-'));
const sqlite = SqliteEventStore.open(join(dir, 'events.db'));
afterAll(async () => {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});
const store = new Interleaved(sqlite);
let streams = 0;
const nextStream = () => `seat-${++streams}`;
afterEach(() => {
  store.afterRead = async () => undefined;
});

const interloper = (streamId: string, event: SeatEvent) =>
  store.inner.append(streamId, [event], { expectedRevision: 'any' }).then(() => undefined);

describe('handleCommand against the SQLite event store', () => {
  it('appends the decided events with the one event-id scheme and the command metadata', async () => {
    const streamId = nextStream();
    const handled = await handleCommand(store, streamId, seat, { type: 'Take', by: 'alice' }, options('cmd-1'));
    expect(handled).toEqual({
      state: { takenBy: 'alice', count: 0 },
      revision: 0,
      events: [{ type: 'SeatTaken', data: { by: 'alice' } }],
    });
    const [stored] = await store.inner.readStream(streamId);
    expect(stored?.eventId).toBe(
      deterministicEventId('cmd-1', streamId, 'no_stream', 0, { type: 'SeatTaken', data: { by: 'alice' } }),
    );
    expect(stored?.metadata).toEqual({
      correlationId: 'corr-cmd-1',
      causationId: 'cmd-1',
      operatorId: 'demo',
      occurredAt: '2026-11-23T12:00:00.000Z',
      schemaVersion: 1,
    });
  });

  it('returns a refusal as a value and appends nothing', async () => {
    const streamId = nextStream();
    await interloper(streamId, { type: 'SeatTaken', data: { by: 'bob' } });
    const refused = await handleCommand(store, streamId, seat, { type: 'Take', by: 'alice' }, options('cmd-2'));
    expect(refused).toEqual({ code: 'SEAT_TAKEN', by: 'bob' });
    expect(await store.inner.readStream(streamId)).toHaveLength(1);
  });

  it('on a conflict reads the stream again and decides again on the new state (here: now refused)', async () => {
    const streamId = nextStream();
    let slipped = false;
    store.afterRead = async () => {
      if (slipped) return;
      slipped = true;
      await interloper(streamId, { type: 'SeatTaken', data: { by: 'bob' } });
    };
    const before = store.reads;
    const refused = await handleCommand(store, streamId, seat, { type: 'Take', by: 'alice' }, options('cmd-3'));
    expect(refused).toEqual({ code: 'SEAT_TAKEN', by: 'bob' });
    expect(store.reads - before).toBe(2);
    expect((await store.inner.readStream(streamId)).map((event) => event.data)).toEqual([{ by: 'bob' }]);
  });

  it('on a conflict appends what the new state calls for, at the new revision', async () => {
    const streamId = nextStream();
    let slipped = false;
    store.afterRead = async () => {
      if (slipped) return;
      slipped = true;
      await interloper(streamId, { type: 'Counted', data: { n: 1 } });
    };
    const handled = await handleCommand(store, streamId, seat, { type: 'Count' }, options('cmd-4'));
    expect(handled).toMatchObject({ revision: 1, events: [{ type: 'Counted', data: { n: 2 } }] });
    expect((await store.inner.readStream(streamId)).map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('a retried command (same command id, same state) appends once: the store takes the same ids as the same append', async () => {
    const streamId = nextStream();
    // Both handlers read the empty stream before either appends: the second append is at a stale revision.
    let waiting: (() => void) | undefined;
    const bothRead = new Promise<void>((resolve) => (waiting = resolve));
    let reads = 0;
    store.afterRead = async () => {
      if (++reads === 2) waiting?.();
      if (reads <= 2) await bothRead;
    };
    const before = store.reads;
    const [first, retry] = await Promise.all([
      handleCommand(store, streamId, seat, { type: 'Count' }, options('cmd-5')),
      handleCommand(store, streamId, seat, { type: 'Count' }, options('cmd-5')),
    ]);
    expect(first).toEqual(retry);
    expect(first).toMatchObject({ revision: 0, events: [{ type: 'Counted', data: { n: 1 } }] });
    expect(store.reads - before).toBe(2); // no conflict, no second read
    expect((await store.inner.readStream(streamId)).map((event) => event.data)).toEqual([{ n: 1 }]);
  });

  it('another command deciding the same events at the same revision conflicts and is decided again', async () => {
    const streamId = nextStream();
    let waiting: (() => void) | undefined;
    const bothRead = new Promise<void>((resolve) => (waiting = resolve));
    let reads = 0;
    store.afterRead = async () => {
      if (++reads === 2) waiting?.();
      if (reads <= 2) await bothRead;
    };
    const handled = await Promise.all([
      handleCommand(store, streamId, seat, { type: 'Count' }, options('cmd-6a')),
      handleCommand(store, streamId, seat, { type: 'Count' }, options('cmd-6b')),
    ]);
    expect(handled.map((result) => ('events' in result ? result.revision : undefined)).sort()).toEqual([0, 1]);
    expect((await store.inner.readStream(streamId)).map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('a command already done is answered from the stream: no events, nothing appended', async () => {
    const streamId = nextStream();
    await handleCommand(store, streamId, seat, { type: 'Take', by: 'alice' }, options('cmd-7'));
    const again = await handleCommand(store, streamId, seat, { type: 'Take', by: 'alice' }, options('cmd-7-resent'));
    expect(again).toEqual({ state: { takenBy: 'alice', count: 0 }, revision: 0, events: [] });
    expect(await store.inner.readStream(streamId)).toHaveLength(1);
  });

  it('gives up with ConcurrencyExhaustedError when the stream moves before every append', async () => {
    const streamId = nextStream();
    let n = 0;
    store.afterRead = async () => interloper(streamId, { type: 'Counted', data: { n: ++n * 100 } });
    const error = await handleCommand(
      store,
      streamId,
      seat,
      { type: 'Count' },
      options('cmd-8', { retry: { maxAttempts: 5 } }),
    ).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConcurrencyExhaustedError);
    expect(error).toMatchObject({ streamId, attempts: 5 });
    expect((error as Error).cause).toMatchObject({ name: 'WrongExpectedRevisionError' });
    expect((await store.inner.readStream(streamId)).map((event) => event.data)).toEqual(
      [1, 2, 3, 4, 5].map((i) => ({ n: i * 100 })),
    );
  });

  it('decides the first attempt on state the caller loaded, without reading the stream', async () => {
    const streamId = nextStream();
    const before = store.reads;
    const handled = await handleCommand(
      store,
      streamId,
      seat,
      { type: 'Count' },
      options('cmd-9', { loaded: { state: seat.initialState, revision: undefined } }),
    );
    expect(handled).toMatchObject({ revision: 0, events: [{ type: 'Counted', data: { n: 1 } }] });
    expect(store.reads).toBe(before);
  });

  it('skips stored events the decider does not own (parse returns undefined)', async () => {
    const streamId = nextStream();
    await store.inner.append(streamId, [{ type: 'Unrelated', data: {} }], { expectedRevision: 'no_stream' });
    const handled = await handleCommand(store, streamId, seat, { type: 'Count' }, options('cmd-10'));
    expect(handled).toMatchObject({ state: { count: 1 }, revision: 1 });
  });

  it('decides on the state it folded last time without reading the stream, and a conflict reads only what came after', async () => {
    const streamId = nextStream();
    const sameParse = options('cmd-11').parse;
    const counted = (commandId: string) =>
      handleCommand(store, streamId, seat, { type: 'Count' }, { ...options(commandId), parse: sameParse });
    for (let n = 1; n <= 5; n++) await counted(`cmd-12-${n}`);
    store.readLog = [];
    await counted('cmd-12-6');
    // Its own appends are folded as stored: the sixth command appends on them without a read.
    expect(store.readLog).toEqual([]);
    await interloper(streamId, { type: 'Counted', data: { n: 70 } });
    const handled = await counted('cmd-12-8');
    expect(handled).toMatchObject({
      state: { count: 71 },
      revision: 7,
      events: [{ type: 'Counted', data: { n: 71 } }],
    });
    // The append at revision 5 was refused (the other writer's event is 6): read from 6, decided again.
    expect(store.readLog).toEqual([{ streamId, fromRevision: 6, returned: 1 }]);
  });

  it('a refusal on the state it folded last time is given only after the stream is read', async () => {
    const streamId = nextStream();
    const sameParse = options('cmd-13').parse;
    const take = (by: string, commandId: string) =>
      handleCommand(store, streamId, seat, { type: 'Take', by }, { ...options(commandId), parse: sameParse });
    await take('alice', 'cmd-13-1');
    await interloper(streamId, { type: 'SeatFreed', data: {} });
    store.readLog = [];
    const handled = await take('bob', 'cmd-13-2');
    expect(handled).toMatchObject({ state: { takenBy: 'bob' }, revision: 2 });
    expect(store.readLog).toEqual([{ streamId, fromRevision: 1, returned: 1 }]);
    // Now refused on the cached state, and read again: nothing new, so refused.
    store.readLog = [];
    expect(await take('carol', 'cmd-13-3')).toEqual({ code: 'SEAT_TAKEN', by: 'bob' });
    expect(store.readLog).toEqual([{ streamId, fromRevision: 3, returned: 0 }]);
  });

  it('"already done" on the state it folded last time is given only after the stream is read', async () => {
    const streamId = nextStream();
    const sameParse = options('cmd-14').parse;
    const take = (commandId: string) =>
      handleCommand(store, streamId, seat, { type: 'Take', by: 'alice' }, { ...options(commandId), parse: sameParse });
    await take('cmd-14-1');
    await interloper(streamId, { type: 'SeatFreed', data: {} });
    const handled = await take('cmd-14-2');
    expect(handled).toMatchObject({ state: { takenBy: 'alice' }, revision: 2, events: [{ type: 'SeatTaken' }] });
    expect(await store.inner.readStream(streamId)).toHaveLength(3);
  });
});

describe('commandHandler: the command handler bound once per kind of stream', () => {
  const seats = commandHandler({
    decider: seat,
    streamId: (row: number) => `seatRow-${row}`,
    parse: (recorded: RecordedEvent) => {
      if (recorded.type !== 'SeatTaken' && recorded.type !== 'Counted')
        throw new Error(`${recorded.streamId} holds a ${recorded.type}`);
      return recorded as unknown as SeatEvent;
    },
    serialize: (event: SeatEvent, metadata: EventContext) => ({
      ...event,
      metadata: { ...metadata, schemaVersion: 1 },
    }),
  });

  it('names the stream from the id, appends as handleCommand does, and loads what it appended', async () => {
    expect(seats.streamId(7)).toBe('seatRow-7');
    const handled = await seats.handle(store, 7, { type: 'Take', by: 'alice' }, context('row-1'));
    expect(handled).toEqual({
      state: { takenBy: 'alice', count: 0 },
      revision: 0,
      events: [{ type: 'SeatTaken', data: { by: 'alice' } }],
    });
    const [stored] = await store.inner.readStream('seatRow-7');
    expect(stored?.eventId).toBe(
      deterministicEventId('row-1', 'seatRow-7', 'no_stream', 0, { type: 'SeatTaken', data: { by: 'alice' } }),
    );
    expect(await seats.load(store, 7)).toEqual({ state: { takenBy: 'alice', count: 0 }, revision: 0 });
    expect(await seats.load(store, 8)).toEqual({ state: seat.initialState, revision: undefined });
  });

  it('decides first on the state the caller loaded and keeps the retry policy it is given', async () => {
    await interloper('seatRow-9', { type: 'SeatTaken', data: { by: 'bob' } });
    // Stale: the caller believes the row empty; one attempt only, so the conflict is not decided again.
    await expect(
      seats.handle(store, 9, { type: 'Take', by: 'alice' }, context('row-2'), {
        loaded: { state: seat.initialState, revision: undefined },
        retry: { maxAttempts: 1 },
      }),
    ).rejects.toBeInstanceOf(ConcurrencyExhaustedError);
    // With the default policy the conflict is read and decided again: refused on bob's seat.
    expect(
      await seats.handle(store, 9, { type: 'Take', by: 'alice' }, context('row-3'), {
        loaded: { state: seat.initialState, revision: undefined },
      }),
    ).toEqual({ code: 'SEAT_TAKEN', by: 'bob' });
    expect(await store.inner.readStream('seatRow-9')).toHaveLength(1);
  });

  it('reads a stored event its kind does not hold as the parser says: not readable', async () => {
    await interloper('seatRow-10', { type: 'Stranger', data: {} } as unknown as SeatEvent);
    await expect(seats.load(store, 10)).rejects.toThrow('seatRow-10 holds a Stranger');
  });
});
