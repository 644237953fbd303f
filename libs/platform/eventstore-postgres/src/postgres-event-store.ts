import { randomUUID } from 'node:crypto';
import type pg from 'pg';
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
import { ChangeFeed } from './change-feed.js';
import { listenConfig, openPool, parsePostgresUrl, type PostgresUrl } from './connection.js';
import { EventStoreClosedError, PostgresUnreachableError, reaching } from './errors.js';
import { EventReader } from './event-reader.js';
import {
  BEFORE_ALL,
  comparePostgresPositions,
  formatPostgresPosition,
  isAfterPostgresPosition,
  parsePostgresPosition,
  type PostgresPosition,
} from './positions.js';
import { assertTransactionIdsAhead, ensureSchema, tablesIn, TransactionIdsBehindError, type Tables } from './schema.js';

export interface PostgresEventStoreOptions {
  /**
   * TEST ONLY: read $all without the transaction watermark, by position alone: the naive design
   * that skips an event whose transaction commits after a later position became visible. The
   * adapter's tests run the contract's position-gap case on it to show that the case fails there.
   */
  unsafeReadWithoutWatermark?: boolean;
}

/** How long `readAll` waits for older transactions to end before it fails (retriable). */
const SETTLE_TIMEOUT_MS = 10_000;

/**
 * The event store on PostgreSQL (15 or later): one table in the URL's schema, shared by every
 * replica that opens the same database. Global order and gap-free catch-up as in
 * docs/adr/0018-postgres-event-store-positions.md.
 */
export class PostgresEventStore implements EventStore {
  private readonly writer: AppendWriter;
  private readonly reader: EventReader;
  private readonly feed: ChangeFeed;
  private readonly subscriptions = new Set<PollingSubscription<PostgresPosition, number>>();
  /** The heads being read for subscriptions from 'end': appends wait for them (see `subscribeToAll`). */
  private readonly pendingEnds = new Set<Promise<unknown>>();
  private readonly subscriptionSource: PollingSource<PostgresPosition, number>;
  private readonly watermarked: boolean;
  private closed = false;
  /** The store's tables in the URL's schema, for the checkpoint and lease stores too. */
  readonly tables: Tables;

  private constructor(
    /** The connections, for the checkpoint and lease stores of the same database. */
    readonly pool: pg.Pool,
    readonly url: PostgresUrl,
    options: PostgresEventStoreOptions,
  ) {
    this.watermarked = options.unsafeReadWithoutWatermark !== true;
    this.tables = tablesIn(url.schema);
    this.writer = new AppendWriter(pool, this.tables);
    this.reader = new EventReader(pool, this.tables, this.watermarked);
    this.feed = new ChangeFeed(listenConfig(url), url.pollIntervalMs);
    this.subscriptionSource = {
      feed: this.feed,
      // The watermark and the last event below it first; then the page, below that watermark.
      readPage: async (after, limit, filter) => {
        const { watermark, head } = await this.reader.snapshot();
        return { head, events: await this.reader.readAll('forwards', { from: after, limit }, filter, watermark) };
      },
      parsePosition: parsePostgresPosition,
      formatPosition: (position) => formatPostgresPosition(position.transactionId, position.sequence),
      isAfter: isAfterPostgresPosition,
      isOpen: () => !this.closed,
    };
  }

  /** Connects, creating the schema and tables when missing; fails naming the address when the server cannot be reached. */
  static async open(url: string, options: PostgresEventStoreOptions = {}): Promise<PostgresEventStore> {
    const parsed = parsePostgresUrl(url);
    const pool = openPool(parsed);
    try {
      const client = await pool.connect();
      try {
        await ensureSchema(client, parsed.schema);
        await assertTransactionIdsAhead(client, tablesIn(parsed.schema));
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end().catch(() => undefined);
      if (error instanceof TransactionIdsBehindError) throw error;
      throw new PostgresUnreachableError(parsed.address, error);
    }
    return new PostgresEventStore(pool, parsed, options);
  }

  async append(streamId: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    const request = appendRequestOf(streamId, events, options.expectedRevision, randomUUID);
    // An 'end' taken just before this append must not see it: its head is read first.
    if (this.pendingEnds.size > 0) await Promise.allSettled([...this.pendingEnds]);
    return reaching(this.url.address, () => this.writer.append(request));
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const { fromRevision } = options;
    assertFromRevision(fromRevision);
    return reaching(this.url.address, () =>
      this.reader.readStream(streamId, options.direction ?? 'forwards', fromRevision, limitOf(options.maxCount)),
    );
  }

  async streamRevision(streamId: string): Promise<StreamRevision | undefined> {
    this.assertOpen();
    return reaching(this.url.address, () => this.reader.streamRevision(streamId));
  }

  /**
   * $all as it was when called: waits (milliseconds, normally) for the transactions still running
   * below the newest committed event to end, so a read never stops short of an event committed
   * before it, then reads below that watermark. Subscriptions do not wait: they read what is settled.
   */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const direction = options.direction ?? 'forwards';
    const from = options.fromPosition === undefined ? undefined : parsePostgresPosition(options.fromPosition);
    const limit = limitOf(options.maxCount);
    return reaching(this.url.address, async () => {
      const watermark = await this.reader.settledWatermark(SETTLE_TIMEOUT_MS);
      return this.reader.readAll(direction, { from, limit }, options.filter, watermark);
    });
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    this.assertOpen();
    const after: PostgresPosition | Promise<PostgresPosition> =
      options.from === 'start'
        ? BEFORE_ALL
        : options.from === 'end'
          ? // Past every event committed before the call, even one not yet below the watermark.
            this.reader
              .settledWatermark(SETTLE_TIMEOUT_MS)
              .then(() => this.reader.snapshot())
              .then(({ head }) => head ?? BEFORE_ALL)
          : parsePostgresPosition(options.from);
    // Taken now, so 'end' is the head when this was called, not when the iteration starts; this store's
    // appends wait for it, so none made after the call is taken for one before it (and skipped).
    if (after instanceof Promise) {
      after.catch(() => undefined);
      this.pendingEnds.add(after);
      void after.finally(() => this.pendingEnds.delete(after)).catch(() => undefined);
    }
    const subscription = new PollingSubscription(this.subscriptionSource, after, options.filter, (ended) =>
      this.subscriptions.delete(ended),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  comparePositions(a: Position, b: Position): number {
    return comparePostgresPositions(a, b);
  }

  /** Ends every subscription, then closes the connections once the queries under way are done. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const subscription of [...this.subscriptions]) await subscription.close();
    await this.feed.close();
    await this.pool.end();
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreClosedError(this.url.address);
  }
}

/** `null` binds as no LIMIT. */
function limitOf(maxCount: number | undefined): number | null {
  return checkedMaxCount(maxCount) ?? null;
}
