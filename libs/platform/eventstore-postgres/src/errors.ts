import { ReelstreamError } from '@reelstream/contracts';

/** Shared by the stores that keep event ids unique across the store: the port's. */
export { DuplicateEventIdError } from '@reelstream/platform-ports';

/** The store was closed: no more appends, reads or subscriptions. */
export class EventStoreClosedError extends ReelstreamError {
  override readonly name = 'EventStoreClosedError';
  constructor(address: string) {
    super('SERVICE_UNAVAILABLE', `event store ${address} is closed`, { retriable: true });
  }
}

/** The server could not be reached when the store was opened. Retriable: it may be up on the next start. */
export class PostgresUnreachableError extends ReelstreamError {
  override readonly name = 'PostgresUnreachableError';
  constructor(address: string, cause: unknown) {
    super(
      'SERVICE_UNAVAILABLE',
      `cannot reach PostgreSQL at ${address}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { retriable: true, cause },
    );
  }
}
