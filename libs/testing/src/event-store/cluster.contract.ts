import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCatchUp, type CheckpointStore, type EventStore, type Position } from '@reelstream/ports';
import { eventually } from '../message-bus/eventually.js';
import type { EventStoreUnderTest } from './under-test.js';

const CASE_TIMEOUT_MS = 300_000;
const APPEND_BATCH = 500;

async function appendForeign(store: EventStore, prefix: string, count: number): Promise<Position> {
  let last: Position | undefined;
  for (let done = 0; done < count; done += APPEND_BATCH) {
    const size = Math.min(APPEND_BATCH, count - done);
    const events = Array.from({ length: size }, (_, n) => ({ type: 'Foreign', data: { n: done + n } }));
    last = (await store.append(`${prefix}-${done}`, events, { expectedRevision: 'no_stream' })).position;
  }
  if (last === undefined) throw new Error('nothing appended');
  return last;
}

/**
 * What first contact with a real EventStoreDB tests (issue 19): large stretches of `$all` that a
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
        const first = startCatchUp({ store, checkpoints, name, filter: { streamPrefixes: [wanted] }, checkpointIntervalMs: 50, handle: async (event) => void seen.push(event.streamId) });
        await eventually(() => expect(seen).toEqual([`${wanted}1`]), 30_000);
        const lastForeign = await appendForeign(store, `cluster-foreign-${run}`, 10_000);
        // The server's checkpoints while it skips the foreign events are what the resume point may use.
        await eventually(async () => {
          const stored = await checkpoints.load(name);
          expect(stored !== undefined && store.comparePositions(stored, lastForeign) >= 0).toBe(true);
        }, 30_000);
        await first.stop();
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
        const [last] = await store.readAll({ direction: 'backwards', maxCount: 1, filter: { streamPrefixes: [wanted] } });
        const elapsed = Date.now() - started;
        expect(last?.streamId).toBe(`${wanted}1`);
        expect(elapsed).toBeLessThan(1_000);
      },
      CASE_TIMEOUT_MS,
    );
  });
}
