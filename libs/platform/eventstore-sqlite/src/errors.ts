/**
 * Errors specific to the embedded store. Expected-revision conflicts use the port's
 * `WrongExpectedRevisionError`; these cover what SQLite enforces beyond the port.
 */
import { ReelstreamError } from '@reelstream/contracts';

/** Shared by the stores that keep event ids unique across the store: the port's. */
export { DuplicateEventIdError } from '@reelstream/platform-ports';

/** A stored row could not be turned back into an event (hand-edited or damaged file). Not retriable. */
export class CorruptEventError extends ReelstreamError {
  override readonly name = 'CorruptEventError';
  constructor(
    readonly position: string,
    reason: string,
  ) {
    super('EVENT_NOT_READABLE', `event at position ${position} is unreadable: ${reason}`, { retriable: false });
  }
}

/** The store was closed: no more appends, reads or subscriptions. */
export class EventStoreClosedError extends ReelstreamError {
  override readonly name = 'EventStoreClosedError';
  constructor(path: string) {
    super('SERVICE_UNAVAILABLE', `event store ${path} is closed`, { retriable: true });
  }
}
