/**
 * Which stream a shard takes, what a shard is named, and where a shard starts when the shard count changed
 * (docs/adr/0045-outbox-and-relay-split-into-shards.md): the rules alone, over positions that are numbers.
 */
import { describe, expect, it } from '@jest/globals';
import type { CheckpointStore, Position } from '@reelstream/platform-ports';
import {
  inShard,
  layoutAwareCheckpoints,
  shardCountProblem,
  shardName,
  slowestShardCheckpoint,
  SHARD_COUNTS,
} from '../src/index.js';

const positions = { comparePositions: (a: Position, b: Position) => Number(a) - Number(b) };

function checkpointsOf(entries: Record<string, number>): CheckpointStore & { saved: Map<string, Position> } {
  const saved = new Map(Object.entries(entries).map(([name, position]) => [name, String(position)]));
  return {
    saved,
    load: async (name) => saved.get(name),
    store: async (name, position) => void saved.set(name, position),
  };
}

describe('inShard', () => {
  it('puts every stream in exactly one shard of each count, and spreads streams over all of them', () => {
    for (const count of [2, 4, 64]) {
      const counts = new Array<number>(count).fill(0);
      for (let round = 1; round <= count * 100; round++) {
        const streamId = `round-${round}`;
        const shards = counts.map((_, index) => index).filter((index) => inShard(streamId, { index, count }));
        expect([streamId, shards.length]).toEqual([streamId, 1]);
        counts[shards[0] as number] = (counts[shards[0] as number] ?? 0) + 1;
      }
      for (const taken of counts) expect(taken).toBeGreaterThan(50);
    }
  });

  it('is the FNV-1a hash of the stream id modulo the count, the same in every process; one shard takes all', () => {
    // fnv1a32('a') = 0xe40c292c = 3826002220: 3826002220 mod 8 = 4.
    expect([0, 1, 2, 3, 4, 5, 6, 7].filter((index) => inShard('a', { index, count: 8 }))).toEqual([4]);
    expect(inShard('round-1', { index: 0, count: 1 })).toBe(true);
    expect(inShard('anything', { index: 0, count: 1 })).toBe(true);
  });
});

describe('shardName and shardCountProblem', () => {
  it('keeps the unsplit name, and names each shard with its index and count', () => {
    expect(shardName('relay', { index: 0, count: 1 })).toBe('relay');
    expect(shardName('relay', { index: 3, count: 8 })).toBe('relay.3of8');
    expect(shardName('relay', { index: 0, count: 2 })).toBe('relay.0of2');
  });

  it('takes the powers of two from 1 to 64 and nothing else', () => {
    expect(SHARD_COUNTS).toEqual([1, 2, 4, 8, 16, 32, 64]);
    for (const count of SHARD_COUNTS) expect(shardCountProblem(count)).toBeUndefined();
    for (const count of [0, 3, 12, 128, 1.5, -2])
      expect(shardCountProblem(count)).toBe(`a shard count is one of 1, 2, 4, 8, 16, 32, 64, got ${count}`);
  });
});

describe('layout-aware checkpoints (a shard count changed)', () => {
  const layouts = () =>
    checkpointsOf({
      relay: 2,
      // The lowest first: the layout's start is its lowest checkpoint, wherever it is.
      'relay.0of2': 6,
      'relay.1of2': 8,
      // Three of four: an incomplete layout says nothing of the fourth shard's streams.
      'relay.0of4': 9,
      'relay.1of4': 9,
      'relay.2of4': 9,
      'other.0of2': 50,
      'other.1of2': 50,
    });
  const load = (checkpoints: CheckpointStore, index: number, count: number) =>
    layoutAwareCheckpoints(checkpoints, 'relay', { index, count }, positions).load(
      shardName('relay', { index, count }),
    );

  it('starts a new shard at the lowest checkpoint of the furthest complete layout of its own worker', async () => {
    const checkpoints = layouts();
    expect(await load(checkpoints, 3, 4)).toBe('6');
    expect(await load(checkpoints, 5, 8)).toBe('6');
    expect(await load(checkpoints, 63, 64)).toBe('6');
  });

  it("keeps a shard's own checkpoint when it is further, and moves an old one forward", async () => {
    const checkpoints = layouts();
    expect(await load(checkpoints, 0, 4)).toBe('9');
    // Back to one relay: past what the two shards handled, not at its own old checkpoint.
    expect(await load(checkpoints, 0, 1)).toBe('6');
    checkpoints.saved.set('relay.0of8', '1');
    expect(await load(checkpoints, 0, 8)).toBe('6');
  });

  it('takes the furthest of several complete layouts', async () => {
    const checkpoints = layouts();
    checkpoints.saved.set('relay.3of4', '7');
    expect(await load(checkpoints, 5, 8)).toBe('7');
    expect(await load(checkpoints, 0, 2)).toBe('7');
    expect(await load(checkpoints, 1, 2)).toBe('8');
  });

  it('answers any other name as stored, and stores through', async () => {
    const checkpoints = layouts();
    const store = layoutAwareCheckpoints(checkpoints, 'relay', { index: 1, count: 4 }, positions);
    expect(await store.load('relay.1of2')).toBe('8');
    expect(await store.load('relay.3of4')).toBeUndefined();
    await store.store('relay.1of4', '12');
    expect(checkpoints.saved.get('relay.1of4')).toBe('12');
  });

  it('starts where the log starts when no layout ever checkpointed', async () => {
    const checkpoints = checkpointsOf({});
    expect(await load(checkpoints, 1, 4)).toBeUndefined();
    expect(await slowestShardCheckpoint('relay', 4, checkpoints, positions)).toBeUndefined();
    expect(await slowestShardCheckpoint('relay', 1, checkpoints, positions)).toBeUndefined();
  });

  it("counts a split worker's lag from its slowest shard, one without a checkpoint where it would start", async () => {
    const checkpoints = layouts();
    expect(await slowestShardCheckpoint('relay', 4, checkpoints, positions)).toBe('6');
    expect(await slowestShardCheckpoint('relay', 2, checkpoints, positions)).toBe('6');
    // A layout whose shards all have checkpoints is read as stored (the one relay's, from when it last ran).
    expect(await slowestShardCheckpoint('relay', 1, checkpoints, positions)).toBe('2');
    checkpoints.saved.set('relay.3of4', '7');
    expect(await slowestShardCheckpoint('relay', 4, checkpoints, positions)).toBe('7');
    checkpoints.saved.set('relay.3of4', '10');
    expect(await slowestShardCheckpoint('relay', 4, checkpoints, positions)).toBe('9');
    expect(await slowestShardCheckpoint('other', 2, checkpoints, positions)).toBe('50');
  });
});
