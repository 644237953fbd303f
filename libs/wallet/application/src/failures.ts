/**
 * Failures that come back every time the same message is handled — the record cannot be read
 * (an event this code cannot parse) or the decider refuses what the record implies. Retrying them
 * would hold the partition for ever, so the message is parked with the reason instead; anything
 * else (store or bus unreachable) is transient and retried.
 */
import { WalletDecisionRefused } from './wallet-tx-repository.js';

const DETERMINISTIC = new Set(['UnknownEventTypeError', 'UnsupportedSchemaVersionError', 'InvalidEventDataError']);

export function isDeterministicFailure(error: unknown): error is Error {
  return error instanceof WalletDecisionRefused || (error instanceof Error && DETERMINISTIC.has(error.name));
}
