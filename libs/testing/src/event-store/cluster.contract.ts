import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCatchUp } from '@reelstream/platform-eventsourcing';
import {
  type CheckpointStore,
  type EventStore,
  type Position,
  type SubscribeToAllOptions,
} from '@reelstream/platform-ports';
import { eventually } from '../message-bus/eventually.js';
import type { EventStoreUnderTest } from './under-test.js';

const CASE_TIMEOUT_MS = 300_000;
const APPEND_BATCH = 500;

/** Appends `count` foreign events; answers the position of the one `fromEnd` events before the last. */
async function appendForeign(store: EventStore, prefix: string, count: number, fromEnd = 0): Promise<Position> {
  for (let done = 0; done < count; done += APPEND_BATCH) {
    const size = Math.min(APPEND_BATCH, count - done);
    const events = Array.from({ length: size }, (_, n) => ({ type: 'Foreign', data: { n: done + n } }));
    await store.append(`${prefix}-${done}`, events, { expectedRevision: 'no_stream' });
  }
  const index = count - 1 - fromEnd;
  const stream = `${prefix}-${index - (index % APPEND_BATCH)}`;
  const [event] = await store.readStream(stream, { fromRevision: index % APPEND_BATCH, maxCount: 1 });
  if (!event) throw new Error(`foreign event ${index} not found`);
  return event.position;
}

/**
 * What first contact with a real EventStoreDB tests: large stretches of `$all` that a
 * filtered reader must not pay for on every read or every restart.
 */
export function describeEventStoreClusterContract(make: () => Promise<EventStoreUnderTest>, adapter: string): void {
  describe(`EventStore cluster contract [${adapter}]`, () => {
    let backend: EventStoreUnderTest | undefined;
    const opened: { store: EventStore; checkpoints: CheckpointStore }[] = [];
    const run = randomUUID().slice(0, 8);
    const open = async () => {
      if (!backend) throw new Error('the back end under test was not made');
      const client = await backend.open();
      opened.push(client);
      return client;
    };

    beforeAll(async () => {
      backend = await make();
    }, 120_000);
    afterAll(async () => {
      await Promise.allSettled(opened.map(({ store }) => store.close()));
      await backend?.dispose();
    }, 60_000);

    it(
      'resumes a filtered catch-up past 10k non-matching events after a restart instead of rescanning them',
      async () => {
        const { store, checkpoints } = await open();
        const wanted = `cluster-wanted-${run}-`;
        const name = `cluster-resume-${run}`;
        await store.append(`${wanted}1`, [{ type: 'Wanted', data: {} }], { expectedRevision: 'no_stream' });
        const seen: string[] = [];
        const first = startCatchUp({
          store,
          checkpoints,
          name,
          filter: { streamPrefixes: [wanted] },
          checkpointIntervalMs: 50,
          handle: async (event) => void seen.push(event.streamId),
        });
        await eventually(() => expect(seen).toEqual([`${wanted}1`]), 30_000);
        // The server sends a checkpoint each time its filter has looked at 32 events (its search
        // window), so the last one lies within a window of the end of the stretch; 64 leaves room.
        const nearEnd = await appendForeign(store, `cluster-foreign-${run}`, 10_000, 64);
        await eventually(async () => {
          const stored = await checkpoints.load(name);
          expect(stored !== undefined && store.comparePositions(stored, nearEnd) >= 0).toBe(true);
        }, 30_000);
        await first.stop();

        // The restart subscribes from the stored checkpoint: past the stretch, not from the wanted event before it.
        await store.append(`${wanted}2`, [{ type: 'Wanted', data: {} }], { expectedRevision: 'no_stream' });
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
          filter: { streamPrefixes: [wanted] },
          handle: async (event) => void again.push(event.streamId),
        });
        try {
          await eventually(() => expect(again).toEqual([`${wanted}2`]), 30_000);
        } finally {
          await second.stop();
        }
        const [from] = froms;
        expect(
          from !== undefined && from !== 'start' && from !== 'end' && store.comparePositions(from, nearEnd) >= 0,
        ).toBe(true);
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'finds the last matching event backwards with maxCount 1 over 50k foreign events in under 1 s',
      async () => {
        const { store } = await open();
        const wanted = `cluster-last-${run}-`;
        await store.append(`${wanted}1`, [{ type: 'Wanted', data: {} }], { expectedRevision: 'no_stream' });
        await appendForeign(store, `cluster-noise-${run}`, 50_000);
        const started = Date.now();
        const [last] = await store.readAll({
          direction: 'backwards',
          maxCount: 1,
          filter: { streamPrefixes: [wanted] },
        });
        const elapsed = Date.now() - started;
        expect(last?.streamId).toBe(`${wanted}1`);
        expect(elapsed).toBeLessThan(1_000);
      },
      CASE_TIMEOUT_MS,
    );
  });
}
