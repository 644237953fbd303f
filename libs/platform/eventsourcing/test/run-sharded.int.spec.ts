/**
 * A worker split into shards, on the real SQLite event store and lease store: connections to one file
 * playing replicas on one data dir. The rules of shards and layouts alone: shards.unit.spec.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { SqliteEventStore, SqliteLeaseStore } from '@reelstream/platform-eventstore-sqlite';
import type { Position, RecordedEvent } from '@reelstream/platform-ports';
import { inShard, runSharded, shardName, shardsForShare, startCatchUp, type ShardedRunner } from '../src/index.js';

// Long enough that a stalled event loop on a busy machine does not lose a lease by itself.
const TTL_MS = 600;
const dir = mkdtempSync(join(tmpdir(), 'run-sharded-'));
const stores: SqliteEventStore[] = [];
const runners: ShardedRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

let files = 0;
const openStore = (path: string) => {
  const store = SqliteEventStore.open(path);
  stores.push(store);
  return store;
};

/** Replicas of one worker split into `count` shards; each replica's share is its own, changeable. */
function replicas(count: number, shares: readonly number[]) {
  const path = join(dir, `events-${++files}.db`);
  return shares.map((initial, index) => {
    const store = openStore(path);
    const replica = {
      id: `replica-${index}`,
      share: initial,
      /** Shards whose worker runs here now. */
      running: new Set<number>(),
      starts: [] as string[],
      runner: undefined as unknown as ShardedRunner,
    };
    replica.runner = runSharded({
      leases: new SqliteLeaseStore(store.database),
      positions: store,
      name: 'relay',
      owner: replica.id,
      ttlMs: TTL_MS,
      count,
      share: () => replica.share,
      start({ shard, name }) {
        replica.running.add(shard.index);
        replica.starts.push(name);
        return { stop: async () => void replica.running.delete(shard.index) };
      },
    });
    runners.push(replica.runner);
    return replica;
  });
}

const sorted = (shards: Iterable<number>) => [...shards].sort((a, b) => a - b);

describe('shardsForShare', () => {
  it('is the share of the shards rounded up, at least one, whatever the share says', () => {
    expect(shardsForShare(16, 1)).toBe(16);
    expect(shardsForShare(16, 1 / 3)).toBe(6);
    expect(shardsForShare(16, 0.25)).toBe(4);
    expect(shardsForShare(16, 0)).toBe(1);
    expect(shardsForShare(16, Number.NaN)).toBe(1);
    expect(shardsForShare(16, 2)).toBe(16);
  });
});

describe('runSharded', () => {
  it('refuses a shard count that is not a power of two up to 64', () => {
    for (const count of [0, 3, 128]) expect(() => replicas(count, [1])).toThrow(RangeError);
  });

  it('splits the shards between two replicas by their shares, each shard on one of them', async () => {
    const [a, b] = replicas(4, [0.5, 0.5]);
    if (!a || !b) throw new Error('two replicas');
    await until(() => a.running.size === 2 && b.running.size === 2);
    expect(sorted([...a.running, ...b.running])).toEqual([0, 1, 2, 3]);
    expect(a.runner.held).toEqual(sorted(a.running));
    await sleep(TTL_MS * 2);
    expect(a.running.size + b.running.size).toBe(4);
    expect(a.starts.length + b.starts.length).toBe(4);
  });

  it("takes a stopped replica's shards over, and gives shards back when another replica's share grows", async () => {
    const [a, b] = replicas(4, [1, 0]);
    if (!a || !b) throw new Error('two replicas');
    await until(() => a.running.size === 4);
    expect(b.running.size).toBe(0);
    // b joined the group: the shares are halves now; a releases its two highest shards, b takes them.
    a.share = 0.5;
    b.share = 0.5;
    await until(() => a.running.size === 2 && b.running.size === 2);
    expect(sorted(a.running)).toEqual([0, 1]);
    expect(sorted(b.running)).toEqual([2, 3]);
    // a stops and releases: b alone holds the whole group.
    await a.runner.stop();
    b.share = 1;
    await until(() => b.running.size === 4);
    expect(b.starts.filter((name) => name === 'relay.0of4' || name === 'relay.1of4')).toHaveLength(2);
  });

  it("takes a crashed replica's shards over once their leases ran out", async () => {
    const [a, b] = replicas(2, [0.5, 0.5]);
    if (!a || !b) throw new Error('two replicas');
    await until(() => a.running.size === 1 && b.running.size === 1);
    const crashed = [...a.running];
    await a.runner.abandon();
    b.share = 1;
    await until(() => b.running.size === 2);
    expect(sorted(b.running)).toEqual([0, 1]);
    expect(b.runner.held).toContain(crashed[0]);
  });

  it('runs an unsplit worker under the name it always had', async () => {
    const [a, b] = replicas(1, [1, 1]);
    if (!a || !b) throw new Error('two replicas');
    await until(() => a.running.size + b.running.size === 1);
    await sleep(TTL_MS);
    expect([...a.starts, ...b.starts]).toEqual(['relay']);
  });
});

describe('a shard of a catch-up subscription', () => {
  it('handles its own streams only, and its checkpoint passes over the others', async () => {
    const store = openStore(join(dir, `events-${++files}.db`));
    const appended: { streamId: string; position: Position }[] = [];
    for (let round = 1; round <= 40; round++) {
      const streamId = `round-${round}`;
      const { position } = await store.append(streamId, [{ type: 'RoundStarted', data: { round } }], {
        expectedRevision: 'no_stream',
      });
      appended.push({ streamId, position });
    }
    const saved = new Map<string, Position>();
    const checkpoints = {
      load: async (name: string) => saved.get(name),
      store: async (name: string, position: Position) => void saved.set(name, position),
    };
    const handled: RecordedEvent[][] = [[], []];
    const shards = [0, 1].map((index) =>
      startCatchUp({
        store,
        checkpoints,
        name: shardName('outbox', { index, count: 2 }),
        shard: { index, count: 2 },
        handle: async (event) => void handled[index]?.push(event),
      }),
    );
    const last = appended[appended.length - 1]?.position as Position;
    await Promise.all(shards.map((runner) => runner.waitFor(last)));
    await Promise.all(shards.map((runner) => runner.stop()));

    for (const index of [0, 1])
      expect(handled[index]?.map((event) => event.streamId)).toEqual(
        appended.filter(({ streamId }) => inShard(streamId, { index, count: 2 })).map(({ streamId }) => streamId),
      );
    expect((handled[0]?.length ?? 0) + (handled[1]?.length ?? 0)).toBe(40);
    // Both checkpoints stand at the last event, whichever shard it belongs to.
    expect(saved.get('outbox.0of2')).toBe(last);
    expect(saved.get('outbox.1of2')).toBe(last);
  });
});
