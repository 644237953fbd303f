import type { Headers, Message, MessageHandler } from '@reelstream/ports';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Signal, sleepUnless, type Semaphore } from './async-tools.js';

/**
 * Handlers that finish without real I/O chain through microtasks only; yielding to the event
 * loop this often keeps commit flushes and lease heartbeats on time under a backlog.
 */
const YIELD_EVERY_MS = 2;

export interface LogRow {
  id: number;
  key: string;
  value: string;
  headers: string;
  timestamp: number;
}

export type Delivery = 'handled' | 'parked' | 'aborted';

export interface PartitionWorkerDeps {
  handler: MessageHandler;
  maxAttempts: number;
  retryDelayMs: (attempt: number) => number;
  semaphore: Semaphore | undefined;
  /** False once the lease may have expired (the event loop stalled past the last renewal): handle nothing more. */
  leaseValid(): boolean;
  fetch(topic: string, partition: number, afterId: number): LogRow[];
  /** The handler succeeded: the offset may be committed. */
  onHandled(topic: string, partition: number, id: number): void;
  /** Dead-letters the row and commits its offset in one transaction; false when the lease was lost. */
  park(topic: string, partition: number, row: LogRow, error: unknown, attempts: number): boolean;
  onError(error: unknown): void;
}

export function toMessage(topic: string, partition: number, row: LogRow): Message {
  return {
    topic,
    partition,
    offset: String(row.id),
    key: row.key,
    value: JSON.parse(row.value) as unknown,
    headers: JSON.parse(row.headers) as Headers,
    timestamp: new Date(row.timestamp).toISOString(),
  };
}

/**
 * Works through one owned partition strictly in offset order: a message is handled (with retries)
 * before the next one is looked at. Stopping lets the in-flight handler finish and starts nothing new.
 */
export class PartitionWorker {
  private active = true;
  private inFlight = false;
  private readonly wake = new Signal();
  private readonly stopSignal = new Signal();
  readonly done: Promise<void>;

  constructor(
    readonly topic: string,
    readonly partition: number,
    private position: number,
    private readonly deps: PartitionWorkerDeps,
  ) {
    this.done = this.run();
  }

  /** True while a handler (or its retries) works on a message. */
  get busy(): boolean {
    return this.inFlight;
  }

  /** New messages may have arrived. */
  notify(): void {
    this.wake.fire();
  }

  stop(): Promise<void> {
    this.active = false;
    this.stopSignal.fire();
    this.wake.fire();
    return this.done;
  }

  private async run(): Promise<void> {
    let lastYield = performance.now();
    while (this.active) {
      const seen = this.wake.version;
      let rows: LogRow[];
      try {
        rows = this.deps.fetch(this.topic, this.partition, this.position);
      } catch (error) {
        this.deps.onError(error);
        await sleepUnless(this.stopSignal, 200);
        continue;
      }
      if (rows.length === 0) {
        await this.wake.wait(seen);
        continue;
      }
      for (const row of rows) {
        if (!this.active) return;
        this.inFlight = true;
        const outcome = await this.deliver(row).finally(() => (this.inFlight = false));
        if (outcome === 'aborted') return;
        this.position = row.id;
        if (outcome === 'handled') this.deps.onHandled(this.topic, this.partition, row.id);
        if (performance.now() - lastYield >= YIELD_EVERY_MS) {
          await nextTurn();
          lastYield = performance.now();
        }
      }
    }
  }

  private async deliver(row: LogRow): Promise<Delivery> {
    const { handler, maxAttempts, retryDelayMs, semaphore } = this.deps;
    let lastError: unknown;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (!this.active || !this.deps.leaseValid()) return 'aborted';
      const release = semaphore ? await semaphore.acquire() : undefined;
      try {
        if (!this.active || !this.deps.leaseValid()) return 'aborted';
        await handler(toMessage(this.topic, this.partition, row), { attempt });
        return 'handled';
      } catch (error) {
        lastError = error;
      } finally {
        release?.();
      }
      if (attempt < maxAttempts) await sleepUnless(this.stopSignal, retryDelayMs(attempt));
    }
    if (!this.active) return 'aborted';
    try {
      return this.deps.park(this.topic, this.partition, row, lastError, maxAttempts) ? 'parked' : 'aborted';
    } catch (error) {
      this.deps.onError(error);
      return 'aborted';
    }
  }
}
