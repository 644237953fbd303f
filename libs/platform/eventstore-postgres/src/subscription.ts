import {
  eventsOf,
  type RecordedEvent,
  type StreamFilter,
  type Subscription,
  type SubscriptionItem,
} from '@reelstream/platform-ports';
import type { ChangeFeed } from './change-feed.js';
import type { VisibleSnapshot } from './event-reader.js';
import { formatPostgresPosition, parsePostgresPosition, type PostgresPosition } from './positions.js';

export interface SubscriptionSource {
  readonly feed: ChangeFeed;
  /** The watermark and the last event below it. */
  snapshot(): Promise<VisibleSnapshot>;
  /** Events strictly after `after` and below `watermark`, oldest first, at most `limit`. */
  readPage(
    after: PostgresPosition,
    limit: number,
    filter: StreamFilter | undefined,
    watermark: string | undefined,
  ): Promise<RecordedEvent[]>;
  /** False once the store is closed. */
  isOpen(): boolean;
}

const PAGE_SIZE = 256;

const isAfter = (a: PostgresPosition, b: PostgresPosition) =>
  a.transactionId > b.transactionId || (a.transactionId === b.transactionId && a.sequence > b.sequence);

/**
 * A catch-up subscription on $all: takes the watermark, reads a page after the last delivered
 * position below it only when the consumer has taken every event of the previous one, then waits
 * for the next commit. A page that is not full has scanned everything below the watermark, so it
 * ends with a checkpoint at the last event there.
 */
export class PostgresSubscription implements Subscription {
  private closed = false;
  private cancelWait: (() => void) | undefined;

  constructor(
    private readonly source: SubscriptionSource,
    private after: PostgresPosition | Promise<PostgresPosition>,
    private readonly filter: StreamFilter | undefined,
    private readonly onClose: (subscription: PostgresSubscription) => void,
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
      let after = await this.after;
      while (this.active) {
        const since = this.source.feed.version();
        const { watermark, head } = await this.source.snapshot();
        const page = await this.source.readPage(after, PAGE_SIZE, this.filter, watermark);
        for (const event of page) {
          if (!this.active) return;
          after = parsePostgresPosition(event.position);
          yield { kind: 'event', event };
        }
        if (page.length < PAGE_SIZE && head && isAfter(head, after) && this.active) {
          after = head;
          yield { kind: 'checkpoint', position: formatPostgresPosition(head.transactionId, head.sequence) };
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
