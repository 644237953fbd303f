/**
 * How a handler of the dispatcher tells a failure to retry from one to give up on.
 *
 * Deterministic: a ReelstreamError with `retriable: false` comes back every time the same message is
 * handled — the record cannot be read (an event this code cannot parse) or the decider refuses what
 * the record implies. Retrying it would hold the key for ever, so the message is given up at once.
 *
 * Retriable: a ReelstreamError with `retriable: true` (a store or bus unreachable for now) is retried
 * for as long as it lasts; the outage shows as consumer lag and error logs, and giving every message
 * up during it would cancel every bet in flight.
 *
 * Unclassified: anything else — an error no adapter translated, or a bug — is not transient by the
 * error family's rule, but a driver's socket error may still pass: it is retried
 * `UNCLASSIFIED_FAILURE_ATTEMPTS` times (about 20 s with the bus's back-off), then given up like a
 * deterministic one. No handler loops for ever on a key.
 *
 * Given up means recorded, never dropped: a bet or betwin fails for good with its cancel, a win is
 * dead-lettered, a webhook parked; each is logged at error and counted by the parked-message metric.
 */
import { isRetriable, ReelstreamError } from '@reelstream/contracts';

export const UNCLASSIFIED_FAILURE_ATTEMPTS = 10;

export function isDeterministicFailure(error: unknown): error is ReelstreamError {
  return error instanceof ReelstreamError && !isRetriable(error);
}

/** Whether a handler gives its message up after `attempt` (1-based) failed with `error`. */
export function givesUp(error: unknown, attempt: number): boolean {
  if (error instanceof ReelstreamError) return !error.retriable;
  return attempt >= UNCLASSIFIED_FAILURE_ATTEMPTS;
}

/** `error` as an Error to record: a thrown non-Error (a string, say) is wrapped with its text. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
