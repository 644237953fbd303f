/**
 * The catch-up subscription on $all that an event store adapter without a server-side
 * subscription builds from three parts of its own: a page read, its position type, and a feed
 * that says when new events may have been committed.
 */
import {
  eventsOf,
  type Position,
  type RecordedEvent,
  type StreamFilter,
  type Subscription,
  type SubscriptionItem,
} from './event-store.js';

/** Commit notifications: a version taken before a read, and a wait for the next commit after it. */
interface CommitFeed<Version> {
  version(): Version;
  /** Resolves on the next commit after `since` (at once if there was one already); `cancel` resolves it early. */
  wait(since: Version): { promise: Promise<void>; cancel: () => void };
}

/** One page after a position, and how far the store was scanned when it was read. */
interface PolledPage<P> {
  /** Events strictly after the position asked for, oldest first, at most the limit. */
  events: RecordedEvent[];
  /**
   * The newest position a page that is not full has scanned to, taken before the page was read
   * so no event at or below it can appear later; `undefined` when the store has none.
   */
  head: P | undefined;
}

export interface PollingSource<P, Version> {
  readonly feed: CommitFeed<Version>;
  readPage(after: P, limit: number, filter: StreamFilter | undefined): PolledPage<P> | Promise<PolledPage<P>>;
  parsePosition(position: Position): P;
  formatPosition(position: P): Position;
  /** True when `a` comes after `b` in the global order. */
  isAfter(a: P, b: P): boolean;
  /** False once the store is closed. */
  isOpen(): boolean;
}

const PAGE_SIZE = 256;

/**
 * A catch-up subscription on $all: reads a page after the last delivered position only when the
 * consumer has taken every event of the previous one, then waits for the next commit. A page
 * that is not full has scanned to the head it was read under, so it ends with a checkpoint there.
 */
export class PollingSubscription<P, Version> implements Subscription {
  private closed = false;
  private cancelWait: (() => void) | undefined;

  constructor(
    private readonly source: PollingSource<P, Version>,
    private readonly from: P | Promise<P>,
    private readonly filter: StreamFilter | undefined,
    private readonly onClose: (subscription: PollingSubscription<P, Version>) => void,
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
    const { source } = this;
    try {
      let after: P = await this.from;
      while (this.active) {
        const since = source.feed.version();
        const { events, head } = await source.readPage(after, PAGE_SIZE, this.filter);
        for (const event of events) {
          if (!this.active) return;
          after = source.parsePosition(event.position);
          yield { kind: 'event', event };
        }
        if (events.length < PAGE_SIZE && head !== undefined && source.isAfter(head, after) && this.active) {
          after = head;
          yield { kind: 'checkpoint', position: source.formatPosition(head) };
        }
        if (events.length === 0 && this.active) {
          const { promise, cancel } = source.feed.wait(since);
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
