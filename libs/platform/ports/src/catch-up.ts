import type { CheckpointStore } from './checkpoints.js';
import type { EventStore, Position, RecordedEvent, StreamFilter } from './event-store.js';

export interface CatchUpOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  /** The checkpoint's name: one per subscriber. */
  name: string;
  filter?: StreamFilter;
  /** Must be idempotent: after a crash, events after the last checkpoint come again. */
  handle: (event: RecordedEvent) => Promise<void>;
  /** A checkpoint is written at most this long after the handler finished. Default 100 ms. */
  checkpointIntervalMs?: number;
  /** Delay before retrying a failed handler or a dropped subscription. Default 500 ms. */
  retryDelayMs?: number;
  onError?: (error: unknown, event: RecordedEvent | undefined) => void;
}

export interface CatchUpRunner {
  /** Position of the last event whose handler finished (not necessarily checkpointed yet). */
  readonly handledPosition: Position | undefined;
  /** Resolves when every event up to `position` has been handled. */
  waitFor(position: Position): Promise<void>;
  /** Stops after the current event and writes the final checkpoint. */
  stop(): Promise<void>;
}

/**
 * Runs a checkpointed catch-up subscription: at-least-once delivery to `handle`, in global order,
 * with the checkpoint moving only past events whose handler has finished.
 */
export function startCatchUp(options: CatchUpOptions): CatchUpRunner {
  const { store, checkpoints, name, filter, handle } = options;
  const interval = options.checkpointIntervalMs ?? 100;
  const retryDelay = options.retryDelayMs ?? 500;
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
  const scheduleFlush = (): void => {
    flushTimer ??= setTimeout(() => {
      flush().catch((error: unknown) => onError(error, undefined));
    }, interval);
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
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  const loop = async (): Promise<void> => {
    stored = await checkpoints.load(name);
    handled = stored;
    while (!stopped) {
      subscription = store.subscribeToAll({ from: handled ?? 'start', ...(filter ? { filter } : {}) });
      try {
        for await (const event of subscription) {
          for (;;) {
            try {
              await handle(event);
              break;
            } catch (error) {
              onError(error, event);
              if (stopped) return;
              await sleep(retryDelay);
            }
          }
          handled = event.position;
          release();
          scheduleFlush();
          if (stopped) break;
        }
      } catch (error) {
        onError(error, undefined);
        if (!stopped) await sleep(retryDelay);
      }
    }
  };

  const running = loop().catch((error: unknown) => onError(error, undefined));

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
