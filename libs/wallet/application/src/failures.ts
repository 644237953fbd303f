/**
 * Failures that come back every time the same message is handled — the record cannot be read
 * (an event this code cannot parse) or the decider refuses what the record implies. Retrying them
 * would hold the partition for ever, so the message is parked with the reason instead; anything
 * else (store or bus unreachable) is transient and retried. The error says which it is: its
 * `retriable` flag, not its class name.
 */
import { isRetriable } from '@reelstream/contracts';

export function isDeterministicFailure(error: unknown): error is Error {
  return error instanceof Error && !isRetriable(error);
}
