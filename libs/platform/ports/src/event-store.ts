/**
 * The EventStore port: append-only streams with optimistic concurrency, a global order, and
 * catch-up subscriptions. Adapters: `@reelstream/platform-eventstore-sqlite` (embedded) and
 * `@reelstream/platform-eventstore-esdb` (EventStoreDB). The contract suite in `@reelstream/testing`
 * pins down every behaviour listed here.
 */
import { ReelstreamError } from '@reelstream/contracts';

/**
 * A point in the global order of all events. Opaque outside the adapter that produced it:
 * compare positions only through `EventStore.comparePositions`, store them as strings.
 */
export type Position = string;

/** Revision of a stream: 0 for its first event (as in EventStoreDB). */
export type StreamRevision = number;

/**
 * What the writer believes about the stream before appending:
 * - `'no_stream'`: the stream must not exist yet;
 * - `'stream_exists'`: the stream must have at least one event;
 * - `'any'`: no check (event-id de-duplication is then best effort only);
 * - a number: the revision of the stream's last event.
 */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | StreamRevision;

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  operatorId?: string;
  occurredAt?: string;
  schemaVersion?: number;
  traceparent?: string;
  tracestate?: string;
  [key: string]: unknown;
}

export interface EventToAppend<Data = unknown, Metadata extends EventMetadata = EventMetadata> {
  /** A UUID. Deterministic ids make a retried append idempotent. Generated when omitted. */
  eventId?: string;
  type: string;
  data: Data;
  metadata?: Metadata;
}

export interface RecordedEvent<Data = unknown, Metadata extends EventMetadata = EventMetadata> {
  streamId: string;
  revision: StreamRevision;
  position: Position;
  eventId: string;
  type: string;
  data: Data;
  metadata: Metadata;
  /** ISO-8601 time the store recorded the event. */
  recordedAt: string;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextExpectedRevision: StreamRevision;
  /** Position of the last appended event. */
  position: Position;
}

export type Direction = 'forwards' | 'backwards';

export interface ReadStreamOptions {
  direction?: Direction;
  /** Inclusive. Defaults to the start (forwards) or the end (backwards). */
  fromRevision?: StreamRevision;
  maxCount?: number;
}

export interface StreamFilter {
  /** Only events whose stream id starts with one of these. */
  streamPrefixes?: readonly string[];
}

export interface ReadAllOptions {
  direction?: Direction;
  /** Exclusive: events strictly after (forwards) or before (backwards) this position. */
  fromPosition?: Position;
  maxCount?: number;
  filter?: StreamFilter;
}

export interface SubscribeToAllOptions {
  /**
   * Exclusive start: `'start'` delivers every event, a position delivers the ones after it, `'end'`
   * the ones after the head of the store when this was called (an append by another client racing
   * the call may fall on either side).
   */
  from: Position | 'start' | 'end';
  filter?: StreamFilter;
}

/**
 * What `Subscription.withCheckpoints()` yields: an event, or how far the store has been scanned.
 * A checkpoint promises that every event at or before its position that passes the filter came
 * before it, so a consumer that has handled those can resume from it instead of rescanning the
 * non-matching stretch behind it.
 */
export type SubscriptionItem =
  | { readonly kind: 'event'; readonly event: RecordedEvent }
  | { readonly kind: 'checkpoint'; readonly position: Position };

/**
 * A live catch-up subscription: replays from `from`, then follows new events, in global order.
 * Iterate with `for await`; the next event is fetched only when the previous iteration ends,
 * so a slow handler applies back-pressure. `close()` ends the iteration.
 */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  /**
   * The same iteration with checkpoints between the events (iterate one or the other, once).
   * Checkpoints move forwards only, and come at the store's pace: EventStoreDB's when its server
   * filter has scanned a window, SQLite's when a page read reached the head of the store.
   */
  withCheckpoints(): AsyncIterable<SubscriptionItem>;
  close(): Promise<void>;
}

/** The events of a `withCheckpoints()` iteration: what a plain iteration of a subscription yields. */
export async function* eventsOf(items: AsyncIterable<SubscriptionItem>): AsyncGenerator<RecordedEvent> {
  for await (const item of items) if (item.kind === 'event') yield item.event;
}

export interface EventStore {
  append(streamId: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult>;
  /** Events of one stream; an absent stream reads as empty. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** The revision of the stream's last event, or `undefined` when it has none. */
  streamRevision(streamId: string): Promise<StreamRevision | undefined>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options: SubscribeToAllOptions): Subscription;
  /** Negative when `a` comes before `b`, 0 when equal, positive after. */
  comparePositions(a: Position, b: Position): number;
  close(): Promise<void>;
}

/**
 * Retriable: the stream moved since it was read, so the whole read-decide-append may succeed when
 * tried again from a fresh read (`retryOnConflict`), never the same append.
 */
export class WrongExpectedRevisionError extends ReelstreamError {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: StreamRevision | 'no_stream',
  ) {
    super(
      'SERVICE_UNAVAILABLE',
      `stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`,
      {
        retriable: true,
      },
    );
  }
}

/**
 * The event id is already stored and the append is not a retry of the append that stored it.
 * Event ids are unique across the whole store in the SQLite and PostgreSQL stores (EventStoreDB only
 * de-duplicates per stream). Not retriable: the same append clashes the same way every time.
 */
export class DuplicateEventIdError extends ReelstreamError {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly eventId: string,
    readonly streamId: string,
    readonly existingStreamId: string,
    readonly existingRevision: number,
  ) {
    super(
      'INTERNAL',
      `cannot append event ${eventId} to ${streamId}: it is already stored in ${existingStreamId} at revision ${existingRevision}`,
      { retriable: false },
    );
  }
}

export function isWrongExpectedRevision(error: unknown): error is WrongExpectedRevisionError {
  return error instanceof WrongExpectedRevisionError;
}
