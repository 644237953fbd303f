import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  FORWARDS,
  START,
  jsonEvent,
  streamNameFilter,
  type AppendResult as AppendResultOfClient,
  type EventData,
  type EventStoreDBClient,
  type JSONType,
  type ReadPosition,
  type ReadRevision,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  type AppendOptions,
  type AppendResult,
  type Direction,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamFilter,
  type StreamRevision,
  type Subscription,
  type SubscribeToAllOptions,
} from '@reelstream/platform-ports';
import { z } from 'zod';
import { isStreamNotFound, toPortAppendError } from './errors.js';
import {
  satisfiesExpectedRevision,
  toEsdbExpectedRevision,
  toEsdbRevision,
  toPortRevision,
} from './expected-revision.js';
import { comparePositions, decodePosition, encodePosition, type EsdbPosition } from './position.js';
import { readAllFiltered } from './filtered-read.js';
import { readAllVisible } from './read-all.js';
import { allPositionOf, toRecordedEvent } from './recorded-event.js';
import { USER_STREAMS_REGEX } from './stream-names.js';
import { EsdbSubscription, FromHeadSource, pushCheckpoint } from './subscription.js';

const eventId = z.guid();
/** Where `$all` begins: what an empty append to a missing stream reports as its position. */
const START_OF_ALL = encodePosition({ commit: 0n, prepare: 0n });

/** Builds the client's event: JSON content, the caller's UUID or a fresh one, metadata as a JSON object. */
export function toEventData(event: EventToAppend): EventData {
  if (event.data === undefined) throw new TypeError(`event ${event.type} has no data`);
  return jsonEvent({
    id: eventId.parse(event.eventId ?? randomUUID()),
    type: event.type,
    // The client types data as object | array | string; any JSON value is what it really serialises.
    data: event.data as JSONType,
    metadata: event.metadata ?? {},
  });
}

/**
 * The server-side part of a subscription filter; the client side (`isVisibleInAll`) checks again.
 * Its checkpoints go into the subscription's stream, where they become the port's checkpoints.
 */
export function subscriptionFilterFor(filter: StreamFilter | undefined) {
  const prefixes = filter?.streamPrefixes;
  const checkpointReached = pushCheckpoint;
  return prefixes && prefixes.length > 0
    ? streamNameFilter({ prefixes: [...prefixes], checkpointReached })
    : streamNameFilter({ regex: USER_STREAMS_REGEX, checkpointReached });
}

function toReadPosition(from: Exclude<SubscribeToAllOptions['from'], 'end'>): ReadPosition {
  return from === 'start' ? START : decodePosition(from);
}

/** The port's `EventStore` on EventStoreDB (`@eventstore/db-client` 6.2, gRPC). */
export class EsdbEventStore implements EventStore {
  constructor(private readonly client: EventStoreDBClient) {}

  async append(streamId: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    const expected = options.expectedRevision;
    if (events.length === 0) return this.appendNothing(streamId, expected);
    const data = events.map(toEventData);
    let result: AppendResultOfClient;
    try {
      result = await this.client.appendToStream(streamId, data, { expectedRevision: toEsdbExpectedRevision(expected) });
    } catch (error) {
      throw toPortAppendError(error, streamId, expected);
    }
    const position = await this.positionOfRevision(streamId, result.nextExpectedRevision);
    return { nextExpectedRevision: toPortRevision(result.nextExpectedRevision), position };
  }

  /**
   * An empty append changes nothing but still checks the expected revision, and answers with the
   * stream's current revision and position (-1 and the start of `$all` for a stream that does not exist).
   */
  private async appendNothing(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    toEsdbExpectedRevision(expected);
    const [last] = await this.readStreamRaw(streamId, BACKWARDS, END, 1);
    if (!satisfiesExpectedRevision(expected, last?.revision)) {
      throw new WrongExpectedRevisionError(streamId, expected, last?.revision ?? 'no_stream');
    }
    return { nextExpectedRevision: last?.revision ?? -1, position: last?.position ?? START_OF_ALL };
  }

  /**
   * The exact `$all` position of the last appended event, read back from the stream. The append result's
   * own position is the write's commit/prepare pair, which for a write of several events need not equal
   * the last event's position in `$all` (EventStore-Client-Go#88); a checkpoint or `fromPosition` taken
   * from it could replay part of the write, and an idempotent re-append reports no fresh position at all.
   */
  private async positionOfRevision(streamId: string, revision: bigint): Promise<Position> {
    const [event] = await this.readStreamRaw(streamId, BACKWARDS, revision, 1);
    if (event?.revision !== toPortRevision(revision)) {
      throw new Error(`append to ${streamId} succeeded but event ${revision} could not be read back for its position`);
    }
    return event.position;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const direction = options.direction ?? 'forwards';
    const from: ReadRevision =
      options.fromRevision === undefined
        ? direction === 'forwards'
          ? START
          : END
        : toEsdbRevision(options.fromRevision);
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    return this.readStreamRaw(streamId, direction === 'forwards' ? FORWARDS : BACKWARDS, from, options.maxCount);
  }

  private async readStreamRaw(
    streamId: string,
    direction: Direction,
    fromRevision: ReadRevision,
    maxCount?: number,
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      // Every stream read decides something (a command's state, an expected revision, a position to
      // hand back): a follower may lag the leader, so these go to the leader.
      const read = this.client.readStream(streamId, {
        direction,
        fromRevision,
        requiresLeader: true,
        ...(maxCount === undefined ? {} : { maxCount }),
      });
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  async streamRevision(streamId: string): Promise<StreamRevision | undefined> {
    const [last] = await this.readStreamRaw(streamId, BACKWARDS, END, 1);
    return last?.revision;
  }

  /** Pages filtered by the server (system, checkpoint and non-matching streams never cross the wire). */
  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return readAllVisible(
      (fromPosition, direction, maxCount) =>
        readAllFiltered(this.client, fromPosition, direction, maxCount, options.filter),
      options,
    );
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    const filter = subscriptionFilterFor(options.filter);
    if (options.from === 'end') {
      const source = new FromHeadSource(this.headOfAll(), (head) =>
        this.client.subscribeToAll({ fromPosition: head ?? START, filter }),
      );
      return new EsdbSubscription(source, undefined, options.filter);
    }
    const fromPosition = toReadPosition(options.from);
    const source = this.client.subscribeToAll({ fromPosition, filter });
    const after = typeof fromPosition === 'object' ? fromPosition : undefined;
    return new EsdbSubscription(source, after, options.filter);
  }

  /** The position of the last event in `$all`, system events included; `undefined` when it is empty. */
  private async headOfAll(): Promise<EsdbPosition | undefined> {
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }))
      return allPositionOf(resolved);
    return undefined;
  }

  comparePositions(a: Position, b: Position): number {
    return comparePositions(a, b);
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
