/**
 * Errors specific to the embedded store. Expected-revision conflicts use the port's
 * `WrongExpectedRevisionError`; these cover what SQLite enforces beyond the port.
 */
import { ReelstreamError } from '@reelstream/contracts';

/**
 * The event id is already stored and the append is not a retry of the append that stored it.
 * Event ids are unique across the whole SQLite store (EventStoreDB only de-duplicates per stream).
 */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly eventId: string,
    readonly streamId: string,
    readonly existingStreamId: string,
    readonly existingRevision: number,
  ) {
    super(
      `cannot append event ${eventId} to ${streamId}: it is already stored in ${existingStreamId} at revision ${existingRevision}`,
    );
  }
}

/** A stored row could not be turned back into an event (hand-edited or damaged file). */
export class CorruptEventError extends Error {
  override readonly name = 'CorruptEventError';
  constructor(
    readonly position: string,
    reason: string,
  ) {
    super(`event at position ${position} is unreadable: ${reason}`);
  }
}

/** The store was closed: no more appends, reads or subscriptions. */
export class EventStoreClosedError extends ReelstreamError {
  override readonly name = 'EventStoreClosedError';
  constructor(path: string) {
    super('SERVICE_UNAVAILABLE', `event store ${path} is closed`, { retriable: true });
  }
}
