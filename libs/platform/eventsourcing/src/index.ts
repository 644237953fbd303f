/**
 * @reelstream/eventsourcing: how a stream is changed and followed, once for every context — the
 * `Decider` shape, `handleCommand` (load → fold → decide → append with the expected revision,
 * retried on conflict), the one deterministic event-id scheme, and the checkpointed catch-up runner
 * (`startCatchUp`, over the port's `Subscription.withCheckpoints`).
 */
export { fold, inSequence, isAccepted, type Decider } from './decider.js';
export { deterministicEventId } from './event-id.js';
export {
  ConcurrencyExhaustedError,
  DEFAULT_RETRY_POLICY,
  isConcurrencyExhausted,
  isConflict,
  retryOnConflict,
  type RetryPolicy,
} from './retry.js';
export {
  handleCommand,
  loadState,
  type CommandContext,
  type Handled,
  type HandleOptions,
  type Loaded,
} from './handle-command.js';
export {
  startCatchUp,
  type BatchCatchUpOptions,
  type CatchUpOptions,
  type CatchUpRunner,
  type EventCatchUpOptions,
} from './catch-up.js';
