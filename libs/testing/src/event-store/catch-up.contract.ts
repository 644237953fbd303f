import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { startCatchUp } from '@reelstream/platform-eventsourcing';
import type { EventStore, RecordedEvent, SubscribeToAllOptions } from '@reelstream/platform-ports';
import { eventually } from '../message-bus/eventually.js';
import { anEvent, at, expectCheckpointAtOrPast, sleep, type EventStoreHarness } from './harness.js';

const ids = (events: readonly RecordedEvent[]) => events.map((e) => e.eventId);
const FOREIGN_EVENTS = 1_000;

/** `startCatchUp` (@reelstream/platform-eventsourcing), one event at a time and in batches, on this adapter's subscriptions and checkpoints. */
export function catchUpCases(harness: () => EventStoreHarness): void {
  it('writes the checkpoint only after the handler finished', async () => {
    const { store, checkpoints } = await harness().open();
    const name = `contract-${randomUUID()}`;
    await store.append(harness().stream('order-1'), [anEvent()], { expectedRevision: 'no_stream' });
    const event = at(await store.readAll({ filter: harness().filter }), 0);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: RecordedEvent[] = [];
    const runner = startCatchUp({
      store,
      checkpoints,
      name,
      filter: harness().filter,
      checkpointIntervalMs: 5,
      handle: async (e) => {
        started.push(e);
        await gate;
      },
    });
    try {
      await eventually(() => expect(started).toHaveLength(1));
      await sleep(150); // many checkpoint intervals: none may be written while the handler runs
      expect(await checkpoints.load(name)).toBeUndefined();
      expect(runner.handledPosition).toBeUndefined();
      release();
      await runner.waitFor(event.position);
      await eventually(() => expectCheckpointAtOrPast(store, checkpoints, name, event.position));
    } finally {
      release();
      await runner.stop();
    }
  });

  it('resumes after the last checkpoint on restart and redelivers nothing before it', async () => {
    const { store, checkpoints } = await harness().open();
    const name = `contract-${randomUUID()}`;
    const stream = harness().stream('order-1');
    await store.append(stream, [anEvent(), anEvent(), anEvent()], { expectedRevision: 'no_stream' });
    const firstRun: RecordedEvent[] = [];
    const first = startCatchUp({
      store,
      checkpoints,
      name,
      filter: harness().filter,
      handle: async (e) => void firstRun.push(e),
    });
    const third = at(await store.readStream(stream), 2);
    await first.waitFor(third.position);
    await first.stop();
    expect(firstRun.map((e) => e.revision)).toEqual([0, 1, 2]);
    await expectCheckpointAtOrPast(store, checkpoints, name, third.position);

    const later = [anEvent(), anEvent()];
    await store.append(stream, later, { expectedRevision: 2 });
    const secondRun: RecordedEvent[] = [];
    const restarted = await harness().open();
    const second = startCatchUp({
      store: restarted.store,
      checkpoints: restarted.checkpoints,
      name,
      filter: harness().filter,
      handle: async (e) => void secondRun.push(e),
    });
    const last = at(await store.readStream(stream, { direction: 'backwards', maxCount: 1 }), 0);
    await second.waitFor(last.position);
    await second.stop();
    expect(ids(secondRun)).toEqual(later.map((e) => e.eventId));
  });

  it('asks for its checkpoint again while the checkpoint store fails (a server restarting), then catches up from it', async () => {
    const { store, checkpoints } = await harness().open();
    const name = `contract-${randomUUID()}`;
    const stream = harness().stream('order-1');
    await store.append(stream, [anEvent(), anEvent()], { expectedRevision: 'no_stream' });
    const second = at(await store.readStream(stream), 1);
    await checkpoints.store(name, at(await store.readStream(stream), 0).position);
    let refusals = 2;
    const errors: unknown[] = [];
    const delivered: RecordedEvent[] = [];
    const runner = startCatchUp({
      store,
      checkpoints: {
        load: (checkpoint) =>
          refusals-- > 0 ? Promise.reject(new Error('the server is restarting')) : checkpoints.load(checkpoint),
        store: (checkpoint, position) => checkpoints.store(checkpoint, position),
      },
      name,
      filter: harness().filter,
      retryDelayMs: 10,
      onError: (error) => void errors.push(error),
      handle: async (e) => void delivered.push(e),
    });
    await runner.waitFor(second.position);
    await runner.stop();
    expect(errors.map((error) => (error as Error).message)).toEqual([
      'the server is restarting',
      'the server is restarting',
    ]);
    expect(delivered.map((e) => e.revision)).toEqual([1]);
  });

  it('retries a throwing handler on the same event instead of skipping it', async () => {
    const { store, checkpoints } = await harness().open();
    const name = `contract-${randomUUID()}`;
    const events = [anEvent(), anEvent(), anEvent()];
    await store.append(harness().stream('order-1'), events, { expectedRevision: 'no_stream' });
    const attempts: string[] = [];
    const handled: string[] = [];
    const errors: (string | undefined)[] = [];
    const runner = startCatchUp({
      store,
      checkpoints,
      name,
      filter: harness().filter,
      retryDelayMs: 10,
      onError: (_error, event) => errors.push(event?.eventId),
      handle: async (e) => {
        attempts.push(e.eventId);
        if (e.eventId === at(events, 1).eventId && attempts.filter((id) => id === e.eventId).length <= 2) {
          throw new Error('transient failure');
        }
        handled.push(e.eventId);
      },
    });
    const last = at(await store.readAll({ filter: harness().filter, direction: 'backwards', maxCount: 1 }), 0);
    await runner.waitFor(last.position);
    await runner.stop();
    expect(handled).toEqual(events.map((e) => e.eventId));
    expect(attempts).toEqual([0, 1, 1, 1, 2].map((i) => at(events, i).eventId));
    expect(errors).toEqual([at(events, 1).eventId, at(events, 1).eventId]);
    await expectCheckpointAtOrPast(store, checkpoints, name, last.position);
  });

  it('hands over what is at hand in batches, in order, retries a failed batch whole, and resumes after its checkpoint', async () => {
    const { store, checkpoints } = await harness().open();
    const name = `contract-${randomUUID()}`;
    const filter = { streamPrefixes: [harness().stream('batch-')] };
    const append = async (stream: string, count: number) => {
      for (let i = 0; i < count; i++)
        await store.append(stream, [anEvent('Counted', { i })], { expectedRevision: 'any' });
    };
    const counted = (batch: readonly RecordedEvent[]) => batch.map((event) => (event.data as { i: number }).i);
    await append(harness().stream('batch-a'), 300);
    await append(harness().stream('other-x'), 5);
    const seen: number[] = [];
    const sizes: number[] = [];
    let failures = 0;
    const handleBatch = async (batch: readonly RecordedEvent[]) => {
      if (sizes.length === 1 && failures === 0) {
        failures += 1;
        throw new Error('bus unavailable');
      }
      sizes.push(batch.length);
      seen.push(...counted(batch));
    };
    const runner = startCatchUp({ store, checkpoints, name, filter, handleBatch, maxBatchSize: 64, retryDelayMs: 10 });
    const last = at(await store.readAll({ direction: 'backwards', maxCount: 1, filter }), 0);
    await runner.waitFor(last.position);
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(failures).toBe(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64);
    expect(sizes.length).toBeLessThan(300 / 4);
    await runner.stop();
    // Past the batches: the five non-matching events after them were scanned too.
    await expectCheckpointAtOrPast(store, checkpoints, name, last.position);

    // A new runner continues after the checkpoint: nothing again, only what came since.
    const later: number[] = [];
    const resumed = startCatchUp({
      store,
      checkpoints,
      name,
      filter,
      handleBatch: async (batch) => void later.push(...counted(batch)),
    });
    await append(harness().stream('batch-a'), 3);
    const newest = at(await store.readAll({ direction: 'backwards', maxCount: 1, filter }), 0);
    await resumed.waitFor(newest.position);
    await resumed.stop();
    expect(later).toEqual([0, 1, 2]);
  });

  it('gives the event loop a turn between batches of a backlog: a callback queued at the start runs before the last batch', async () => {
    const { store, checkpoints } = await harness().open();
    const name = `contract-${randomUUID()}`;
    const filter = { streamPrefixes: [harness().stream('backlog-')] };
    await store.append(
      harness().stream('backlog-a'),
      Array.from({ length: 2_000 }, (_, i) => anEvent('Counted', { i })),
      { expectedRevision: 'no_stream' },
    );
    const last = at(await store.readAll({ direction: 'backwards', maxCount: 1, filter }), 0);
    let batches = 0;
    let batchesWhenTheCallbackRan: number | undefined;
    setImmediate(() => (batchesWhenTheCallbackRan = batches));
    const runner = startCatchUp({
      store,
      checkpoints,
      name,
      filter,
      maxBatchSize: 50,
      handleBatch: async () => void (batches += 1),
    });
    await runner.waitFor(last.position);
    await runner.stop();
    // 2,000 events in batches of at most 50: at least 40 batches; the callback ran while they were handed over.
    expect(batches).toBeGreaterThanOrEqual(40);
    expect(batchesWhenTheCallbackRan).toBeDefined();
    expect(batchesWhenTheCallbackRan).toBeLessThan(batches);
  });

  it('moves the checkpoint past 1,000 non-matching events, so a restart subscribes past them instead of rescanning', async () => {
    const { store, checkpoints } = await harness().open();
    const name = `contract-${randomUUID()}`;
    const wanted = harness().stream('wanted-');
    const filter = { streamPrefixes: [wanted] };
    const seen: string[] = [];
    await store.append(`${wanted}1`, [anEvent()], { expectedRevision: 'no_stream' });
    const first = startCatchUp({
      store,
      checkpoints,
      name,
      filter,
      checkpointIntervalMs: 10,
      handle: async (e) => void seen.push(e.streamId),
    });
    await eventually(() => expect(seen).toEqual([`${wanted}1`]));
    const foreign = harness().stream('foreign');
    await store.append(
      foreign,
      Array.from({ length: FOREIGN_EVENTS }, () => anEvent('Foreign')),
      { expectedRevision: 'no_stream' },
    );
    // EventStoreDB sends a checkpoint each time its filter has looked at 32 events (its search window):
    // the last one may lie up to a window short of the end of the stretch.
    const nearEnd = at(await store.readStream(foreign, { fromRevision: FOREIGN_EVENTS - 64, maxCount: 1 }), 0);
    await eventually(() => expectCheckpointAtOrPast(store, checkpoints, name, nearEnd.position), 30_000);
    await first.stop();

    await store.append(`${wanted}2`, [anEvent()], { expectedRevision: 'no_stream' });
    const froms: SubscribeToAllOptions['from'][] = [];
    const recording: EventStore = Object.create(store, {
      subscribeToAll: {
        value: (options: SubscribeToAllOptions) => (froms.push(options.from), store.subscribeToAll(options)),
      },
    });
    const again: string[] = [];
    const second = startCatchUp({
      store: recording,
      checkpoints,
      name,
      filter,
      handle: async (e) => void again.push(e.streamId),
    });
    try {
      await eventually(() => expect(again).toEqual([`${wanted}2`]));
    } finally {
      await second.stop();
    }
    const from = at(froms, 0);
    expect(from !== 'start' && from !== 'end' && store.comparePositions(from, nearEnd.position) >= 0).toBe(true);
  });
}
