import { afterAll, describe, expect, it } from '@jest/globals';
import { SqliteCheckpointStore } from '@reelstream/eventstore-sqlite';
import type { RecordedEvent } from '@reelstream/ports';
import { startBatchedCatchUp } from '../src/index.js';
import { StoreFixture } from './fixtures.js';

const fixture = new StoreFixture();
afterAll(() => fixture.close());

const append = async (stream: string, count: number) => {
  for (let i = 0; i < count; i++) await fixture.store.append(stream, [{ type: 'Counted', data: { i } }], { expectedRevision: 'any' });
};

describe('startBatchedCatchUp', () => {
  it('hands over what is at hand in batches, in order, retries a failed batch whole, and resumes after its checkpoint', async () => {
    const checkpoints = new SqliteCheckpointStore(fixture.store.database);
    await append('batch-a', 300);
    await append('other-x', 5);
    const seen: number[] = [];
    const sizes: number[] = [];
    let failures = 0;
    const handleBatch = async (batch: readonly RecordedEvent[]) => {
      if (sizes.length === 1 && failures === 0) {
        failures += 1;
        throw new Error('bus unavailable');
      }
      sizes.push(batch.length);
      seen.push(...batch.map((event) => (event.data as { i: number }).i));
    };
    const runner = startBatchedCatchUp({ store: fixture.store, checkpoints, name: 'batched-test', filter: { streamPrefixes: ['batch-'] }, handleBatch, maxBatch: 64, retryDelayMs: 10 });
    const [last] = await fixture.store.readAll({ direction: 'backwards', maxCount: 1, filter: { streamPrefixes: ['batch-'] } });
    await runner.waitFor(last?.position as string);
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(failures).toBe(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64);
    expect(sizes.length).toBeLessThan(300 / 4);
    await runner.stop();
    expect(await checkpoints.load('batched-test')).toBe(last?.position);

    // A new runner continues after the checkpoint: nothing again, only what came since.
    const later: number[] = [];
    const resumed = startBatchedCatchUp({ store: fixture.store, checkpoints, name: 'batched-test', filter: { streamPrefixes: ['batch-'] }, handleBatch: async (batch) => void later.push(...batch.map((event) => (event.data as { i: number }).i)) });
    await append('batch-a', 3);
    const [newest] = await fixture.store.readAll({ direction: 'backwards', maxCount: 1, filter: { streamPrefixes: ['batch-'] } });
    await resumed.waitFor(newest?.position as string);
    await resumed.stop();
    expect(later).toEqual([0, 1, 2]);
  });
});
