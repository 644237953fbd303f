import type {
  CheckpointStore,
  EventStore,
  Position,
  RecordedEvent,
  StreamFilter,
  SubscriptionItem,
} from '@reelstream/platform-ports';
import { inShard, type StreamShard } from './shards.js';

interface CatchUpSettings {
  store: EventStore;
  checkpoints: CheckpointStore;
  /** The checkpoint's name: one per subscriber. */
  name: string;
  filter?: StreamFilter;
  /**
   * Only the streams of this shard (`inShard`): the events of the others are passed over like events the
   * filter leaves out, and the checkpoint moves past them.
   */
  shard?: StreamShard;
  /** A checkpoint is written at most this long after the handler finished. Default 100 ms. */
  checkpointIntervalMs?: number;
  /** Delay before retrying a failed handler or a dropped subscription. Default 500 ms. */
  retryDelayMs?: number;
  /** `event`: the event (with `handleBatch`, the first event of the batch) whose handler failed; undefined for a subscription or checkpoint failure. */
  onError?: (error: unknown, event: RecordedEvent | undefined) => void;
}

/** One event at a time. */
interface EventCatchUpOptions extends CatchUpSettings {
  /** Must be idempotent: after a crash, events after the last checkpoint come again. */
  handle: (event: RecordedEvent) => Promise<void>;
  handleBatch?: never;
  maxBatchSize?: never;
}

/**
 * Batches: every event the subscription already has at hand (up to `maxBatchSize`) in one call,
 * so a handler can write or publish them in one transaction (each durable commit costs an fsync).
 */
interface BatchCatchUpOptions extends CatchUpSettings {
  /** Must be idempotent: after a crash, the events after the last checkpoint come again. A failed batch is retried whole. */
  handleBatch: (events: readonly RecordedEvent[]) => Promise<void>;
  /** Largest batch. Default 256. */
  maxBatchSize?: number;
  handle?: never;
}

export type CatchUpOptions = EventCatchUpOptions | BatchCatchUpOptions;

export interface CatchUpRunner {
  /** Position of the last event whose handler finished (not necessarily checkpointed yet). */
  readonly handledPosition: Position | undefined;
  /** Resolves when every event up to `position` that passes the filter has been handled. */
  waitFor(position: Position): Promise<void>;
  /** Stops after the current event (or batch) and writes the final checkpoint. */
  stop(): Promise<void>;
}

const DEFAULT_MAX_BATCH_SIZE = 256;
const IDLE = Symbol('idle');

/** Resolves on the next turn of the event loop: after every promise already settled has run. */
const nextTurn = () => new Promise<typeof IDLE>((resolve) => setImmediate(() => resolve(IDLE)));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs a checkpointed catch-up subscription: at-least-once delivery to `handle` (or
 * `handleBatch`), in global order, with the checkpoint moving only past events whose handler has
 * finished. A failing handler is retried on the same event (or batch), never skipped. The
 * subscription's own checkpoints move it too, once the events before them are handled, so a
 * restart resumes past a stretch of non-matching events instead of scanning it again.
 */
// Long because: the read loop, the checkpoint timer and stop share the runner's stopped flag and last handled position
// (closures).
export function startCatchUp(options: CatchUpOptions): CatchUpRunner {
  const { store, checkpoints, name, filter, shard } = options;
  const handleBatch = batchHandlerOf(options);
  const maxBatchSize = options.handleBatch ? (options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE) : 1;
  const interval = options.checkpointIntervalMs ?? 100;
  const retryDelay = options.retryDelayMs ?? 500;
  const onError = options.onError ?? (() => undefined);

  let stopped = false;
  let handled: Position | undefined;
  /** Where a restart resumes: past every handled event and every stretch scanned without a match. */
  let resume: Position | undefined;
  let stored: Position | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let subscription: ReturnType<EventStore['subscribeToAll']> | undefined;
  const waiters: { position: Position; resolve: () => void }[] = [];

  const flush = async (): Promise<void> => {
    flushTimer = undefined;
    if (resume === undefined || resume === stored) return;
    const position = resume;
    await checkpoints.store(name, position);
    stored = position;
  };
  const scheduleFlush = (): void => {
    flushTimer ??= setTimeout(() => {
      flush().catch((error: unknown) => onError(error, undefined));
    }, interval);
  };
  const release = (): void => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i];
      if (waiter && resume !== undefined && store.comparePositions(resume, waiter.position) >= 0) {
        waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  };

  /** Runs the handler until it succeeds; false when the runner stopped first. */
  const handleUntilDone = async (batch: readonly RecordedEvent[]): Promise<boolean> => {
    for (;;) {
      try {
        await handleBatch(batch);
        return true;
      } catch (error) {
        onError(error, batch[0]);
        if (stopped) return false;
        await sleep(retryDelay);
      }
    }
  };

  /** Moves the resume point forwards only: a checkpoint may lag behind the last event. */
  const advance = (position: Position | undefined): void => {
    if (position === undefined || (resume !== undefined && store.comparePositions(position, resume) <= 0)) return;
    resume = position;
    release();
    scheduleFlush();
  };

  /**
   * Pulls the next batch: the next event, then whatever the subscription already holds, up to the
   * limit. A checkpoint taken along with the batch is applied only after the batch was handled: it
   * may lie past the batch's events, never past one still to come.
   */
  const consume = async (items: AsyncIterator<SubscriptionItem>): Promise<void> => {
    let pending: Promise<IteratorResult<SubscriptionItem>> | undefined;
    while (!stopped) {
      const first = await (pending ?? items.next());
      pending = undefined;
      if (first.done) return;
      const batch: RecordedEvent[] = [];
      let scanned: Position | undefined;
      const take = (item: SubscriptionItem) => {
        if (item.kind !== 'event') scanned = item.position;
        else if (shard && !inShard(item.event.streamId, shard)) scanned = item.event.position;
        else batch.push(item.event);
      };
      take(first.value);
      // One turn of the event loop per batch: the batch takes what comes before it (events at hand), and the loop
      // waits for it after the batch (below).
      const turn = nextTurn();
      // Stop at the first item that is not there yet: waiting for a full batch would delay the ones at hand.
      while (batch.length < maxBatchSize) {
        const next = items.next();
        const ready = await Promise.race([next, turn]);
        if (ready === IDLE) {
          pending = next;
          break;
        }
        if (ready.done) break;
        take(ready.value);
      }
      if (batch.length > 0) {
        if (!(await handleUntilDone(batch))) return;
        handled = (batch[batch.length - 1] as RecordedEvent).position;
        advance(handled);
      }
      advance(scanned);
      // Events at hand arrive in microtasks (a SQLite subscription reads its pages synchronously): without this
      // wait a backlog would hold the event loop for the whole catch-up (no timer, I/O or HTTP request in
      // between), and each batch's turn would stay queued until the end, its memory with it.
      await turn;
    }
  };

  /** The stored checkpoint, asked for until the store answers (a server restarting) or the runner stops. */
  const loadCheckpoint = async (): Promise<Position | undefined> => {
    for (;;) {
      try {
        return await checkpoints.load(name);
      } catch (error) {
        onError(error, undefined);
        if (stopped) return undefined;
        await sleep(retryDelay);
      }
    }
  };

  const loop = async (): Promise<void> => {
    stored = await loadCheckpoint();
    if (stopped) return;
    handled = stored;
    resume = stored;
    while (!stopped) {
      subscription = store.subscribeToAll({ from: resume ?? 'start', ...(filter ? { filter } : {}) });
      let failed = false;
      try {
        await consume(subscription.withCheckpoints()[Symbol.asyncIterator]());
      } catch (error) {
        onError(error, undefined);
        failed = true;
      }
      await subscription.close();
      if (failed && !stopped) await sleep(retryDelay);
    }
  };

  const running = loop().catch((error: unknown) => onError(error, undefined));

  return {
    get handledPosition() {
      return handled;
    },
    waitFor(position) {
      if (resume !== undefined && store.comparePositions(resume, position) >= 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ position, resolve }));
    },
    async stop() {
      stopped = true;
      await subscription?.close();
      await running;
      if (flushTimer) clearTimeout(flushTimer);
      await flush();
    },
  };
}

function batchHandlerOf(options: CatchUpOptions): (events: readonly RecordedEvent[]) => Promise<void> {
  if (options.handleBatch) return options.handleBatch;
  const { handle } = options;
  return (events) => handle(events[0] as RecordedEvent);
}
