/**
 * The argument checks every event store adapter makes before it touches its back end, and the
 * append request it hands its writer: one definition, so the adapters refuse the same input alike.
 */
import type { EventToAppend, ExpectedRevision } from './event-store.js';

/** An event ready to insert: id settled, JSON serialised once, at `append` time. */
interface SerializedEvent {
  eventId: string;
  type: string;
  data: string;
  metadata: string;
}

/** One append as an adapter's writer receives it: checked, serialised, with its stream's category. */
export interface AppendRequest {
  streamId: string;
  category: string;
  expected: ExpectedRevision;
  events: readonly SerializedEvent[];
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The event as the store writes it: its own id (a UUID, lower-cased) or one drawn from `newId`,
 * its data and metadata as JSON. Throws a TypeError for an id that is not a UUID or data JSON cannot hold.
 */
function serializeEvent(event: EventToAppend, newId: () => string): SerializedEvent {
  let eventId: string;
  if (event.eventId === undefined) eventId = newId();
  else if (uuid.test(event.eventId)) eventId = event.eventId.toLowerCase();
  else throw new TypeError(`event id must be a UUID, got ${JSON.stringify(event.eventId)}`);
  const data = JSON.stringify(event.data) as string | undefined;
  if (data === undefined) throw new TypeError(`event ${event.type} has no JSON-serialisable data`);
  return { eventId, type: event.type, data, metadata: JSON.stringify(event.metadata ?? {}) };
}

function assertStreamId(streamId: string): void {
  if (typeof streamId !== 'string' || streamId.length === 0)
    throw new TypeError('stream id must be a non-empty string');
}

function assertExpectedRevision(expected: ExpectedRevision): void {
  const valid =
    expected === 'no_stream' ||
    expected === 'stream_exists' ||
    expected === 'any' ||
    (Number.isSafeInteger(expected) && expected >= 0);
  if (!valid) throw new TypeError(`invalid expected revision ${String(expected)}`);
}

/** `readStream`'s `fromRevision`, when given, must be a revision. */
export function assertFromRevision(fromRevision: number | undefined): void {
  if (fromRevision !== undefined && !(Number.isSafeInteger(fromRevision) && fromRevision >= 0))
    throw new RangeError(`fromRevision must be a non-negative integer, got ${fromRevision}`);
}

/** A read's `maxCount`, checked: `undefined` when the read has no limit. */
export function checkedMaxCount(maxCount: number | undefined): number | undefined {
  if (maxCount !== undefined && !(Number.isSafeInteger(maxCount) && maxCount >= 0))
    throw new RangeError(`maxCount must be a non-negative integer, got ${maxCount}`);
  return maxCount;
}

/**
 * The category of a stream id or prefix: everything up to and including the first '-', or '' without
 * one. The adapters store it with each event, so a category's events are read through an index.
 */
export function categoryOf(streamIdOrPrefix: string): string {
  return streamIdOrPrefix.slice(0, streamIdOrPrefix.indexOf('-') + 1);
}

/**
 * One append as an adapter's writer takes it: the stream id and expected revision checked, each
 * event serialised (ids from `newId` where the event has none), the stream's category named.
 * Throws a TypeError for a bad stream id, expected revision, event id or data, before anything is written.
 */
export function appendRequestOf(
  streamId: string,
  events: readonly EventToAppend[],
  expected: ExpectedRevision,
  newId: () => string,
): AppendRequest {
  assertStreamId(streamId);
  assertExpectedRevision(expected);
  return {
    streamId,
    category: categoryOf(streamId),
    expected,
    events: events.map((event) => serializeEvent(event, newId)),
  };
}
