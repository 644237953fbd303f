import type { AppendRequest, AppendResult } from '@reelstream/platform-ports';
import type { AppendOutcome, AppendWriter } from './append-writer.js';

interface QueuedAppend {
  request: AppendRequest;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

export interface CommitStats {
  /** Transactions committed by this store instance. */
  transactions: number;
  /** Appends (calls of `append`) those transactions carried, conflicts included. */
  appends: number;
}

/**
 * Group commit: every append requested during one turn of the event loop goes into a single
 * transaction, written when the turn ends (setImmediate). With synchronous=FULL each commit is an
 * fsync, so 50 concurrent writers pay one fsync per batch instead of 50. Callers are settled only
 * after COMMIT returned, so a resolved append is durable.
 */
export class GroupCommit {
  private queue: QueuedAppend[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  readonly stats: CommitStats = { transactions: 0, appends: 0 };

  constructor(
    private readonly writer: AppendWriter,
    private readonly maxBatch: number,
    private readonly afterCommit: () => void,
  ) {}

  enqueue(request: AppendRequest): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.scheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Writes everything queued now, batch after batch (used by `close`). */
  drain(): void {
    while (this.queue.length > 0) this.flushBatch();
  }

  private flush(): void {
    this.scheduled = undefined;
    this.flushBatch();
    // Leftovers beyond maxBatch go in the next turn, letting I/O and timers run in between.
    if (this.queue.length > 0) this.scheduled = setImmediate(() => this.flush());
  }

  private flushBatch(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
    this.queue = batch === this.queue ? [] : this.queue.slice(this.maxBatch);

    let outcomes: AppendOutcome[];
    try {
      outcomes = this.writer.writeBatch(batch.map((queued) => queued.request));
    } catch (error) {
      for (const queued of batch) queued.reject(error);
      return;
    }
    this.stats.transactions += 1;
    this.stats.appends += batch.length;
    for (let i = 0; i < batch.length; i++) {
      const queued = batch[i];
      const outcome = outcomes[i];
      if (!queued || !outcome) continue;
      if (outcome.ok) queued.resolve(outcome.result);
      else queued.reject(outcome.error);
    }
    this.afterCommit();
  }
}
