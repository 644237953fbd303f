/**
 * A checkpointed catch-up subscription that hands its handler batches: every event the
 * subscription already has at hand (up to `maxBatch`), instead of one at a time. The relay then
 * publishes a batch in one bus transaction and the projection writes it in one SQLite
 * transaction, which is what keeps up with a busy ledger on the embedded back ends (each durable
 * commit costs an fsync). Same guarantees as `startCatchUp` of the ports: at least once, in
 * global order, the checkpoint only past events whose batch has finished.
 */
import type { CatchUpRunner, CheckpointStore, EventStore, Position, RecordedEvent, StreamFilter } from '@reelstream/ports';

export interface BatchedCatchUpOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  name: string;
  filter?: StreamFilter;
  /** Must be idempotent: after a crash, the events after the last checkpoint come again. */
  handleBatch: (events: readonly RecordedEvent[]) => Promise<void>;
  /** Largest batch. Default 256. */
  maxBatch?: number;
  /** A checkpoint is written at most this long after a batch finished. Default 100 ms. */
  checkpointIntervalMs?: number;
  /** Delay before retrying a failed batch or a dropped subscription. Default 250 ms. */
  retryDelayMs?: number;
  onError?: (error: unknown) => void;
}

const IDLE = Symbol('idle');

/** Resolves on the next turn of the event loop: after every promise already settled has run. */
const nextTurn = () => new Promise<typeof IDLE>((resolve) => setImmediate(() => resolve(IDLE)));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function startBatchedCatchUp(options: BatchedCatchUpOptions): CatchUpRunner {
  const { store, checkpoints, name, filter, handleBatch } = options;
  const maxBatch = options.maxBatch ?? 256;
  const interval = options.checkpointIntervalMs ?? 100;
  const retryDelay = options.retryDelayMs ?? 250;
  const onError = options.onError ?? (() => undefined);

  let stopped = false;
  let handled: Position | undefined;
  let stored: Position | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let subscription: ReturnType<EventStore['subscribeToAll']> | undefined;
  const waiters: { position: Position; resolve: () => void }[] = [];

  const flush = async (): Promise<void> => {
    flushTimer = undefined;
    if (handled === undefined || handled === stored) return;
    const position = handled;
    await checkpoints.store(name, position);
    stored = position;
  };
  const release = (): void => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i];
      if (waiter && handled !== undefined && store.comparePositions(handled, waiter.position) >= 0) {
        waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  };

  /** Runs a batch until it succeeds (or the runner stops): a failed batch is never skipped. */
  const handle = async (batch: readonly RecordedEvent[]): Promise<boolean> => {
    for (;;) {
      try {
        await handleBatch(batch);
        return true;
      } catch (error) {
        onError(error);
        if (stopped) return false;
        await sleep(retryDelay);
      }
    }
  };

  const consume = async (iterator: AsyncIterator<RecordedEvent>): Promise<void> => {
    let pending: Promise<IteratorResult<RecordedEvent>> | undefined;
    while (!stopped) {
      const first = await (pending ?? iterator.next());
      pending = undefined;
      if (first.done) return;
      const batch = [first.value];
      // Take what the subscription already holds; stop at the first event that is not there yet.
      while (batch.length < maxBatch) {
        const next = iterator.next();
        const ready = await Promise.race([next, nextTurn()]);
        if (ready === IDLE) {
          pending = next;
          break;
        }
        if (ready.done) break;
        batch.push(ready.value);
      }
      if (!(await handle(batch))) return;
      handled = (batch[batch.length - 1] as RecordedEvent).position;
      release();
      flushTimer ??= setTimeout(() => {
        flush().catch((error: unknown) => onError(error));
      }, interval);
    }
  };

  const loop = async (): Promise<void> => {
    stored = await checkpoints.load(name);
    handled = stored;
    while (!stopped) {
      subscription = store.subscribeToAll({ from: handled ?? 'start', ...(filter ? { filter } : {}) });
      try {
        await consume(subscription[Symbol.asyncIterator]());
      } catch (error) {
        onError(error);
      }
      await subscription.close();
      if (!stopped) await sleep(retryDelay);
    }
  };

  const running = loop().catch((error: unknown) => onError(error));

  return {
    get handledPosition() {
      return handled;
    },
    waitFor(position) {
      if (handled !== undefined && store.comparePositions(handled, position) >= 0) return Promise.resolve();
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
