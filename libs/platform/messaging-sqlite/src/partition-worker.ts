import type { Headers, Message, MessageHandler } from '@reelstream/platform-ports';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Signal, sleepUnless, type Semaphore } from './async-tools.js';
import { UnfinishedOffsets } from './offset-committer.js';

/** The handler's `signal`: no deadline here, and a lost lease is noticed between attempts. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * Handlers that finish without real I/O chain through microtasks only; yielding to the event
 * loop this often keeps commit flushes and lease heartbeats on time under a backlog.
 */
const YIELD_EVERY_MS = 2;

/** With `keyConcurrency` > 1: how many fetched messages may wait behind busy keys before fetching pauses. */
const LOOKAHEAD = 1_000;

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
  /** Messages of this partition in handlers at once, never two of one key. 1: strict offset order. */
  keyConcurrency: number;
  /** False once the lease may have expired (the event loop stalled past the last renewal): handle nothing more. */
  leaseValid(): boolean;
  fetch(topic: string, partition: number, afterId: number): LogRow[];
  /** The most rows one `fetch` returns: a page this full means more may follow. */
  fetchBatch: number;
  /** The handler succeeded: the offset may be committed. */
  onHandled(topic: string, partition: number, id: number): void;
  /** Dead-letters the row and commits `position` in one transaction; false when the lease was lost. */
  park(topic: string, partition: number, row: LogRow, error: unknown, attempts: number, position: number): boolean;
  onError(error: unknown): void;
}

function toMessage(topic: string, partition: number, row: LogRow): Message {
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
 * Works through one owned partition. With `keyConcurrency` 1, strictly in offset order: a message
 * is handled (with retries) before the next one is looked at. With N > 1, up to N messages of
 * distinct keys are in handlers at once; a message whose key is busy waits, and so does every
 * later message of that key, so per-key order holds; the committed position stays before the
 * first unfinished message. Stopping lets in-flight handlers finish and starts nothing new.
 */
export class PartitionWorker {
  private active = true;
  private inFlight = 0;
  private readonly wake = new Signal();
  private readonly stopSignal = new Signal();
  /**
   * Whether the partition may hold rows after the last fetch: set by `notify` and by a full page,
   * cleared just before a fetch (synchronous, so no notification slips between the two). A wake-up
   * that only frees a slot (a handler finished) then does not query the log again.
   */
  private mayHaveMore = true;
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
    return this.inFlight > 0;
  }

  /** New messages may have arrived. */
  notify(): void {
    this.mayHaveMore = true;
    this.wake.fire();
  }

  stop(): Promise<void> {
    this.active = false;
    this.stopSignal.fire();
    this.wake.fire();
    return this.done;
  }

  private async run(): Promise<void> {
    if (this.deps.keyConcurrency > 1) return this.runByKey(this.deps.keyConcurrency);
    let lastYield = performance.now();
    while (this.active) {
      const seen = this.wake.version;
      const rows = await this.fetchOrWait(seen);
      if (!rows) continue;
      for (const row of rows) {
        if (!this.active) return;
        this.inFlight = 1;
        const outcome = await this.deliver(row, () => row.id).finally(() => (this.inFlight = 0));
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

  /**
   * The next rows to deliver, or none this turn: a failed fetch is reported and followed by a pause, and
   * with nothing new the worker sleeps until woken (`seen` is the wake-up version read before the fetch).
   */
  private async fetchOrWait(seen: number): Promise<LogRow[] | undefined> {
    let rows: LogRow[];
    try {
      rows = this.fetchIfNotified();
    } catch (error) {
      this.deps.onError(error);
      await sleepUnless(this.stopSignal, 200);
      return undefined;
    }
    if (rows.length > 0) return rows;
    await this.wake.wait(seen);
    return undefined;
  }

  // Long because: start and finish share the backlog, the busy keys and the unfinished offsets (closures); the offset
  // may only move past finished work, which is easiest to check in one place.
  private async runByKey(limit: number): Promise<void> {
    const offsets = new UnfinishedOffsets(this.position);
    const backlog: LogRow[] = [];
    const busyKeys = new Set<string>();
    const handlers = new Set<Promise<void>>();
    let lastYield = performance.now();

    const start = (row: LogRow) => {
      busyKeys.add(row.key);
      this.inFlight += 1;
      const handling = this.deliver(row, () => offsets.positionIfFinished(row.id))
        .then((outcome) => {
          if (outcome === 'aborted') {
            // Unfinished: the committed position stays before it, so the next owner gets it again.
            this.active = false;
            return;
          }
          const position = offsets.finish(row.id);
          if (position !== undefined) this.deps.onHandled(this.topic, this.partition, position);
        })
        .catch((error: unknown) => {
          this.deps.onError(error);
          this.active = false;
        })
        .finally(() => {
          this.inFlight -= 1;
          busyKeys.delete(row.key);
          handlers.delete(handling);
          this.wake.fire();
        });
      handlers.add(handling);
    };
    /** Starts what may start, in offset order; a waiting message blocks only the later ones of its key. */
    const schedule = () => {
      const blocked = new Set(busyKeys);
      for (let index = 0; index < backlog.length && this.inFlight < limit;) {
        const row = backlog[index] as LogRow;
        if (blocked.has(row.key)) {
          index += 1;
          continue;
        }
        backlog.splice(index, 1);
        blocked.add(row.key);
        start(row);
      }
    };

    while (this.active) {
      const seen = this.wake.version;
      schedule();
      if (this.inFlight >= limit || backlog.length >= LOOKAHEAD) {
        await this.wake.wait(seen);
        continue;
      }
      const rows = await this.fetchOrWait(seen);
      if (!rows) continue;
      for (const row of rows) {
        offsets.add(row.id);
        backlog.push(row);
        this.position = row.id;
      }
      if (performance.now() - lastYield >= YIELD_EVERY_MS) {
        await nextTurn();
        lastYield = performance.now();
      }
    }
    while (handlers.size > 0) await Promise.all([...handlers]);
  }

  /** The rows after the position, or none without a query when nothing new was announced since the last fetch. */
  private fetchIfNotified(): LogRow[] {
    if (!this.mayHaveMore) return [];
    this.mayHaveMore = false;
    try {
      const rows = this.deps.fetch(this.topic, this.partition, this.position);
      // A full page: more may follow at once.
      if (rows.length >= this.deps.fetchBatch) this.mayHaveMore = true;
      return rows;
    } catch (error) {
      this.mayHaveMore = true;
      throw error;
    }
  }

  /** `commitOnPark`: the position dead-lettering this row may commit with it. */
  private async deliver(row: LogRow, commitOnPark: () => number): Promise<Delivery> {
    const { handler, maxAttempts, retryDelayMs, semaphore } = this.deps;
    let lastError: unknown;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (!this.active || !this.deps.leaseValid()) return 'aborted';
      const release = semaphore ? await semaphore.acquire() : undefined;
      try {
        if (!this.active || !this.deps.leaseValid()) return 'aborted';
        await handler(toMessage(this.topic, this.partition, row), { attempt, signal: NEVER_ABORTED });
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
      return this.deps.park(this.topic, this.partition, row, lastError, maxAttempts, commitOnPark())
        ? 'parked'
        : 'aborted';
    } catch (error) {
      this.deps.onError(error);
      return 'aborted';
    }
  }
}
