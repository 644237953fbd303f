import { realpathSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import {
  appendRequestOf,
  assertFromRevision,
  checkedMaxCount,
  PollingSubscription,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type PollingSource,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamRevision,
  type SubscribeToAllOptions,
  type Subscription,
} from '@reelstream/platform-ports';
import { AppendWriter } from './append-writer.js';
import { ChangeFeed, notifyCommit, type FeedVersion } from './change-feed.js';
import { EventStoreClosedError } from './errors.js';
import { TimeOrderedUuids } from './event-ids.js';
import { END, EventReader } from './event-reader.js';
import { GroupCommit, type CommitStats } from './group-commit.js';
import { compareDecimalPositions, parsePosition } from './positions.js';
import { openConnection } from './connection.js';

export interface SqliteEventStoreOptions {
  /**
   * FULL (default) syncs the WAL on every commit. NORMAL syncs only at checkpoints and can lose
   * the last commits on power loss (never corrupts): acceptable for tests, not for money.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /** How long a writer waits for another process's write lock before failing. Default 5000 ms. */
  busyTimeoutMs?: number;
  /** How often waiting subscriptions look for commits made by other processes. Default 20 ms. */
  pollIntervalMs?: number;
  /** Most appends written in one group-commit transaction. Default 500. */
  maxBatchAppends?: number;
}

/** The ids of events appended without one: time-ordered, so the `event_id` index grows at its end. */
const generatedIds = new TimeOrderedUuids();
const nextEventId = () => generatedIds.next();
let memoryFiles = 0;

/** The embedded event store: one SQLite file in WAL mode, shareable by several processes. */
export class SqliteEventStore implements EventStore {
  private readonly writer: GroupCommit;
  private readonly reader: EventReader;
  private readonly feed: ChangeFeed;
  private readonly subscriptions = new Set<PollingSubscription<number, FeedVersion>>();
  private closed = false;
  private readonly subscriptionSource: PollingSource<number, FeedVersion>;

  private constructor(
    /** The connection, for components that keep their tables in the same file (checkpoints). */
    readonly database: Database,
    private readonly fileKey: string,
    options: SqliteEventStoreOptions,
  ) {
    this.reader = new EventReader(database);
    this.feed = new ChangeFeed(database, fileKey, options.pollIntervalMs ?? 20);
    this.writer = new GroupCommit(new AppendWriter(database), options.maxBatchAppends ?? 500, () =>
      notifyCommit(this.fileKey),
    );
    this.subscriptionSource = {
      feed: this.feed,
      readPage: (after, limit, filter) => {
        // Read before the page: every event up to it is visible to the page's reads, and positions
        // are handed out under the write lock, so nothing below it can commit later.
        const head = this.reader.lastPosition();
        return { head, events: this.reader.readAll('forwards', after, limit, filter) };
      },
      parsePosition: Number,
      formatPosition: String,
      isAfter: (a, b) => a > b,
      isOpen: () => !this.closed,
    };
  }

  static open(path: string, options: SqliteEventStoreOptions = {}): SqliteEventStore {
    const db = openConnection(path, {
      synchronous: options.synchronous ?? 'FULL',
      busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    });
    // The real path, so every instance of this process on the same file shares commit notifications.
    const fileKey = db.memory ? `:memory:#${++memoryFiles}` : realpathSync(path);
    return new SqliteEventStore(db, fileKey, options);
  }

  /** Transactions and appends written so far by this instance: how well group commit batches. */
  get commitStats(): Readonly<CommitStats> {
    return { ...this.writer.stats };
  }

  append(streamId: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    try {
      this.assertOpen();
      return this.writer.enqueue(appendRequestOf(streamId, events, options.expectedRevision, nextEventId));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const { fromRevision } = options;
    assertFromRevision(fromRevision);
    return this.reader.readStream(streamId, options.direction ?? 'forwards', fromRevision, limitOf(options.maxCount));
  }

  async streamRevision(streamId: string): Promise<StreamRevision | undefined> {
    this.assertOpen();
    return this.reader.streamRevision(streamId);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const direction = options.direction ?? 'forwards';
    const from =
      options.fromPosition === undefined ? (direction === 'forwards' ? 0 : END) : parsePosition(options.fromPosition);
    return this.reader.readAll(direction, from, limitOf(options.maxCount), options.filter);
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    this.assertOpen();
    const after =
      options.from === 'start' ? 0 : options.from === 'end' ? this.reader.lastPosition() : parsePosition(options.from);
    const subscription = new PollingSubscription(this.subscriptionSource, after, options.filter, (ended) =>
      this.subscriptions.delete(ended),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  comparePositions(a: Position, b: Position): number {
    return compareDecimalPositions(a, b);
  }

  /** Writes the appends still queued, ends every subscription, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.writer.drain();
    this.closed = true;
    for (const subscription of [...this.subscriptions]) await subscription.close();
    this.feed.close();
    this.database.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreClosedError(this.fileKey);
  }
}

/** SQLite's LIMIT reads -1 as none. */
function limitOf(maxCount: number | undefined): number {
  return checkedMaxCount(maxCount) ?? -1;
}
