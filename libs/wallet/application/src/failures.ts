/**
 * Failures that come back every time the same message is handled — the record cannot be read
 * (an event this code cannot parse) or the decider refuses what the record implies. Retrying them
 * would hold the partition for ever, so the message is parked with the reason instead. The error
 * says which it is: a ReelstreamError with `retriable: false`, never a class name. Anything else —
 * a retriable ReelstreamError, or an error no adapter translated (a driver's socket error) — is
 * retried, so nothing is parked by mistake.
 */
import { isRetriable, ReelstreamError } from '@reelstream/contracts';

export function isDeterministicFailure(error: unknown): error is ReelstreamError {
  return error instanceof ReelstreamError && !isRetriable(error);
}
