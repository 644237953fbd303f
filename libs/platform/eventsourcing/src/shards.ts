/**
 * Work split by stream (docs/adr/0045-outbox-and-relay-split-into-shards.md): a stream's shard is the FNV-1a hash
 * of its id modulo the shard count, so every event of one stream (one round, one player's bonus calls) goes to
 * one shard, in the log's order. Each shard keeps its own lease and checkpoint, named after the worker.
 */
import { fnv1a32, type CheckpointStore, type EventStore, type Position } from '@reelstream/platform-ports';

export interface StreamShard {
  readonly index: number;
  readonly count: number;
}

/** The shard counts a worker may be split into: powers of two, so a layout's checkpoints are few to look up. */
export const SHARD_COUNTS: readonly number[] = [1, 2, 4, 8, 16, 32, 64];

export function shardCountProblem(count: number): string | undefined {
  return SHARD_COUNTS.includes(count) ? undefined : `a shard count is one of ${SHARD_COUNTS.join(', ')}, got ${count}`;
}

export function inShard(streamId: string, shard: StreamShard): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent: any hash modulo 1 is 0, the one shard's index; the test only spares the hash
  return shard.count === 1 || fnv1a32(streamId) % shard.count === shard.index;
}

/** The lease and checkpoint name of one shard; a worker that is not split keeps the name it always had. */
export function shardName(name: string, shard: StreamShard): string {
  return shard.count === 1 ? name : `${name}.${shard.index}of${shard.count}`;
}

type Positions = Pick<EventStore, 'comparePositions'>;

function later(positions: Positions, a: Position | undefined, b: Position | undefined): Position | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  // Stryker disable next-line EqualityOperator: equivalent: two positions that compare equal are the same position
  return positions.comparePositions(a, b) >= 0 ? a : b;
}

/** The checkpoints of every shard of one layout (`count` shards of `worker`), in shard order. */
function layoutCheckpoints(
  worker: string,
  count: number,
  checkpoints: Pick<CheckpointStore, 'load'>,
): Promise<(Position | undefined)[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) => checkpoints.load(shardName(worker, { index, count }))),
  );
}

/** The lowest of the positions; undefined when any is (a shard that never checkpointed stands at the start). */
function lowest(positions: Positions, list: readonly (Position | undefined)[]): Position | undefined {
  let low: Position | undefined;
  for (const position of list) {
    if (position === undefined) return undefined;
    // Stryker disable next-line EqualityOperator: equivalent: two positions that compare equal are the same position
    if (low === undefined || positions.comparePositions(position, low) < 0) low = position;
  }
  return low;
}

/**
 * The furthest point every event before which some complete layout (every shard of one count with a
 * checkpoint, the unsplit worker included) has handled: the lowest checkpoint of that layout, the highest
 * such over the layouts other than `exceptCount`. Undefined when no other layout is complete.
 */
async function handledByAnotherLayout(
  worker: string,
  exceptCount: number,
  checkpoints: Pick<CheckpointStore, 'load'>,
  positions: Positions,
): Promise<Position | undefined> {
  let best: Position | undefined;
  for (const count of SHARD_COUNTS) {
    // Stryker disable next-line ConditionalExpression: equivalent: the shard's own layout is complete only with its own checkpoint, which its lowest cannot pass; the test spares the reads
    if (count === exceptCount) continue;
    best = later(positions, best, lowest(positions, await layoutCheckpoints(worker, count, checkpoints)));
  }
  return best;
}

/**
 * A shard's checkpoints, whose first load starts it past what another layout already handled: a worker whose
 * shard count changed (or that was not split before) neither sends again what the old layout sent nor
 * misses what it did not. Each other layout's lowest checkpoint is safe to start from, since every shard of
 * that layout handled its streams up to its own; the shard's own checkpoint wins when it is further.
 */
export function layoutAwareCheckpoints(
  checkpoints: CheckpointStore,
  worker: string,
  shard: StreamShard,
  positions: Positions,
): CheckpointStore {
  const own = shardName(worker, shard);
  return {
    async load(name) {
      const position = await checkpoints.load(name);
      if (name !== own) return position;
      return later(positions, position, await handledByAnotherLayout(worker, shard.count, checkpoints, positions));
    },
    store: (name, position) => checkpoints.store(name, position),
  };
}

/**
 * Where a split worker's slowest shard stands (the unsplit worker's checkpoint when it is not split): what its
 * lag is counted from. A shard without a checkpoint yet stands where its first load would start it; when every
 * shard has one, they are read as stored (one more look at the other layouts per scrape would cost up to 127
 * reads, and a running shard's first checkpoint moves it past them anyway).
 */
export async function slowestShardCheckpoint(
  worker: string,
  count: number,
  checkpoints: Pick<CheckpointStore, 'load'>,
  positions: Positions,
): Promise<Position | undefined> {
  const own = await layoutCheckpoints(worker, count, checkpoints);
  const elsewhere = own.some((position) => position === undefined)
    ? await handledByAnotherLayout(worker, count, checkpoints, positions)
    : undefined;
  return lowest(
    positions,
    own.map((position) => later(positions, position, elsewhere)),
  );
}
