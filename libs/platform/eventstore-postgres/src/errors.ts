import { ReelstreamError } from '@reelstream/contracts';

/**
 * The event id is already stored and the append is not a retry of the append that stored it.
 * Event ids are unique across the whole store, as in the SQLite store.
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

/** The store was closed: no more appends, reads or subscriptions. */
export class EventStoreClosedError extends ReelstreamError {
  override readonly name = 'EventStoreClosedError';
  constructor(address: string) {
    super('SERVICE_UNAVAILABLE', `event store ${address} is closed`, { retriable: true });
  }
}

/** The server could not be reached when the store was opened. */
export class PostgresUnreachableError extends Error {
  override readonly name = 'PostgresUnreachableError';
  constructor(address: string, cause: unknown) {
    super(`cannot reach PostgreSQL at ${address}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}
