/**
 * @reelstream/platform-eventsourcing: how a stream is changed and followed, once for every context — the
 * `Decider` shape, `handleCommand` (load → fold → decide → append with the expected revision,
 * retried on conflict) and `commandHandler`, which binds it once per kind of stream, the one deterministic event-id scheme, and the checkpointed catch-up runner
 * (`startCatchUp`, over the port's `Subscription.withCheckpoints`).
 */
export { inSequence, type Decider } from './decider.js';
export { deterministicEventId } from './event-id.js';
export { ConcurrencyExhaustedError, retryOnConflict, type RetryPolicy } from './retry.js';
export { handleCommand, type CommandContext, type HandleOptions } from './handle-command.js';
export { commandHandler } from './command-handler.js';
export { startCatchUp, type CatchUpRunner } from './catch-up.js';
export { caughtUpWith } from './caught-up.js';
export { pendingEvents, PENDING_EVENTS_CAP } from './pending-events.js';
export { runLeased, type LeaseGuard, type LeasedRunner } from './run-leased.js';
export { runSharded, shardsForShare, type ShardedRunner } from './run-sharded.js';
export {
  inShard,
  layoutAwareCheckpoints,
  shardCountProblem,
  shardName,
  slowestShardCheckpoint,
  SHARD_COUNTS,
  type StreamShard,
} from './shards.js';
