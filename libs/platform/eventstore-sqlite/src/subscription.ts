import {
  eventsOf,
  type RecordedEvent,
  type StreamFilter,
  type Subscription,
  type SubscriptionItem,
} from '@reelstream/platform-ports';
import type { ChangeFeed } from './change-feed.js';

export interface SubscriptionSource {
  readonly feed: ChangeFeed;
  /** Events strictly after `after`, oldest first, at most `limit`. */
  readPage(after: number, limit: number, filter: StreamFilter | undefined): RecordedEvent[];
  /** Position of the newest committed event, 0 when there is none. */
  head(): number;
  /** False once the store is closed. */
  isOpen(): boolean;
}

const PAGE_SIZE = 256;

/**
 * A catch-up subscription on $all: reads a page after the last delivered position only when the
 * consumer has taken every event of the previous one, then waits for the next commit. A page that
 * is not full has scanned to the head of the store, so it ends with a checkpoint at the head.
 */
export class SqliteSubscription implements Subscription {
  private closed = false;
  private cancelWait: (() => void) | undefined;

  constructor(
    private readonly source: SubscriptionSource,
    private after: number,
    private readonly filter: StreamFilter | undefined,
    private readonly onClose: (subscription: SqliteSubscription) => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return eventsOf(this.items());
  }

  withCheckpoints(): AsyncIterable<SubscriptionItem> {
    return this.items();
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.cancelWait?.();
      this.onClose(this);
    }
    return Promise.resolve();
  }

  private get active(): boolean {
    return !this.closed && this.source.isOpen();
  }

  private async *items(): AsyncGenerator<SubscriptionItem> {
    try {
      while (this.active) {
        const since = this.source.feed.version();
        // Read before the page: every event up to it is visible to the page's reads, and positions
        // are handed out under the write lock, so nothing below it can commit later.
        const head = this.source.head();
        const page = this.source.readPage(this.after, PAGE_SIZE, this.filter);
        for (const event of page) {
          if (!this.active) return;
          this.after = Number(event.position);
          yield { kind: 'event', event };
        }
        if (page.length < PAGE_SIZE && head > this.after && this.active) {
          this.after = head;
          yield { kind: 'checkpoint', position: String(head) };
        }
        if (page.length === 0 && this.active) {
          const { promise, cancel } = this.source.feed.wait(since);
          this.cancelWait = cancel;
          await promise;
          this.cancelWait = undefined;
        }
      }
    } finally {
      // `break` in a for-await loop lands here: the subscription ends with its loop.
      await this.close();
    }
  }
}
