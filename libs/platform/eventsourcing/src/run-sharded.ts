/**
 * A worker split into shards across replicas (docs/adr/0045-outbox-and-relay-split-into-shards.md): each shard
 * runs under its own lease (`runLeased`, so fenced like any singleton), and a replica holds at most its part
 * of them, the shard count times its share of its service's consumer group (at least one). A replica under
 * its part asks for shards nobody holds; one over it (a replica joined, so its share fell) releases its
 * highest shards, which the others then take. A worker of one shard is the singleton it always was.
 */
import type { CheckpointStore, EventStore, Lease, LeasesAndFencedCheckpoints } from '@reelstream/platform-ports';
import { runLeased, type LeasedRunner } from './run-leased.js';
import { fnv1a32 } from '@reelstream/platform-ports';
import { layoutAwareCheckpoints, shardCountProblem, shardName, type StreamShard } from './shards.js';

/**
 * One shard handed to its worker with its lease, as a sharded catch-up worker (the round outbox, the bonus
 * relay) takes it: spread into the worker's options.
 */
interface LeasedShard {
  readonly shard: StreamShard;
  /** The shard's lease and checkpoint name. */
  readonly name: string;
  /** Checkpoints written under the lease; the first load starts past what another shard count already handled. */
  readonly checkpoints: CheckpointStore;
  /** False once this replica may no longer be the only one working on the shard (`LeaseGuard.held`). */
  readonly held: () => boolean;
}

export interface RunShardedOptions {
  leases: LeasesAndFencedCheckpoints;
  /** Compares the checkpoints' positions. */
  positions: Pick<EventStore, 'comparePositions'>;
  /** The worker's name: each shard's lease and checkpoint is `shardName(name, shard)`. */
  name: string;
  /** This replica's instance id. */
  owner: string;
  ttlMs: number;
  /** One of `SHARD_COUNTS`. */
  count: number;
  /** This replica's share of its service's group, 0–1 (`Consumer.share`); read on every round. */
  share: () => number;
  start(shard: LeasedShard): { stop(): Promise<void> } | Promise<{ stop(): Promise<void> }>;
  onChange?: (change: 'acquired' | 'lost' | 'released', lease: Lease) => void;
  onError?: (error: unknown) => void;
  now?: () => number;
}

export interface ShardedRunner {
  /** True while this replica holds at least one shard and runs its worker. */
  readonly holding: boolean;
  /** The shards this replica works on now. */
  readonly held: readonly number[];
  /** Stops every shard's worker and releases their leases. */
  stop(): Promise<void>;
  /** Stops without releasing, as a crash would. For tests. */
  abandon(): Promise<void>;
}

/** How many shards a replica with `share` of its group works on: its part, rounded up, at least one. */
export function shardsForShare(count: number, share: number): number {
  const bounded = Number.isFinite(share) ? Math.min(1, Math.max(0, share)) : 0;
  return Math.max(1, Math.ceil(count * bounded));
}

// Long because: the rounds, the shards' runners and stop share the runners, the cursor and the timer (closures).
export function runSharded(options: RunShardedOptions): ShardedRunner {
  const problem = shardCountProblem(options.count);
  if (problem) throw new RangeError(problem);
  const { count } = options;
  const interval = Math.max(1, Math.floor(options.ttlMs / 3));
  const now = options.now ?? Date.now;
  const onError = options.onError ?? (() => undefined);
  /** Started shards, holding their lease or still asking for it, with when they started asking. */
  const runners = new Map<number, { runner: LeasedRunner; since: number }>();
  const stopping = new Set<Promise<void>>();
  // Replicas start asking at different shards, so they do not all queue for the same ones.
  let cursor = fnv1a32(options.owner) % count;
  let stopped = false;

  const run = (index: number): LeasedRunner => {
    const shard = { index, count };
    const name = shardName(options.name, shard);
    return runLeased({
      leases: options.leases,
      name,
      owner: options.owner,
      ttlMs: options.ttlMs,
      ...(options.now ? { now: options.now } : {}),
      start: (guard) =>
        options.start({
          shard,
          name,
          held: () => guard.held(),
          checkpoints: layoutAwareCheckpoints(guard.checkpoints, options.name, shard, options.positions),
        }),
      ...(options.onChange ? { onChange: options.onChange } : {}),
      onError,
    });
  };

  const drop = (index: number): void => {
    const entry = runners.get(index);
    if (!entry) return;
    runners.delete(index);
    const done = entry.runner.stop().catch(onError);
    stopping.add(done);
    void done.finally(() => stopping.delete(done));
  };

  const round = (): void => {
    if (stopped) return;
    const part = count === 1 ? 1 : shardsForShare(count, options.share());
    // A shard still asking after a whole round is held by another replica: ask for another one.
    for (const [index, { runner, since }] of runners) if (!runner.holding && now() - since >= interval) drop(index);
    const holding = [...runners.keys()].filter((index) => runners.get(index)?.runner.holding).sort((a, b) => b - a);
    for (const index of holding.slice(0, Math.max(0, holding.length - part))) drop(index);
    for (let tried = 0; tried < count && runners.size < part; tried++) {
      const index = cursor;
      cursor = (cursor + 1) % count;
      if (!runners.has(index)) runners.set(index, { runner: run(index), since: now() });
    }
  };

  round();
  const timer = setInterval(round, interval);
  timer.unref();

  const halt = async (release: boolean): Promise<void> => {
    stopped = true;
    clearInterval(timer);
    const all = [...runners.values()].map(({ runner }) => (release ? runner.stop() : runner.abandon()));
    runners.clear();
    await Promise.all([...all, ...stopping]);
  };

  return {
    get holding() {
      return [...runners.values()].some(({ runner }) => runner.holding);
    },
    get held() {
      return [...runners.keys()].filter((index) => runners.get(index)?.runner.holding).sort((a, b) => a - b);
    },
    stop: () => halt(true),
    abandon: () => halt(false),
  };
}
