import kafkajs from 'kafkajs';
import { ReelstreamError } from '@reelstream/contracts';

// kafkajs's index spreads its error classes into module.exports, which named ESM imports cannot see.
const { KafkaJSError } = kafkajs;

/**
 * Errors that mean "this member's place in the group is gone or moving": kafkajs' runner rejoins the
 * group when one of these reaches it as is (`consumer/runner.js`, `isRebalancing` and the
 * `UNKNOWN_MEMBER_ID` check), and crashes for good when it arrives wrapped.
 */
const REJOIN_TYPES = new Set([
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'REBALANCE_IN_PROGRESS',
  'NOT_COORDINATOR_FOR_GROUP',
]);

const MAX_CAUSE_DEPTH = 10;

function typeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const type = (error as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

/**
 * The protocol error asking for a rejoin, found in `error` or its `cause` chain. kafkajs' retrier wraps
 * a non-retriable error (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID and REBALANCE_IN_PROGRESS all are) in a
 * `KafkaJSNonRetriableError` that has no `type` (`retry/index.js`): rethrowing the inner error is what
 * lets the runner rejoin instead of crashing with `restart: false`.
 */
export function groupMembershipError(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current !== undefined && current !== null; depth++) {
    const type = typeOf(current);
    if (type !== undefined && REJOIN_TYPES.has(type) && current instanceof Error) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What to throw back into kafkajs: the rejoin-worthy protocol error when there is one, else the error itself. */
export function forKafkajs(error: unknown): unknown {
  return groupMembershipError(error) ?? error;
}

/**
 * kafkajs's own `retriable`, read here and nowhere else: whether what kafkajs gave up on may pass later.
 * Its retrier wraps the error it stopped on (`KafkaJSNumberOfRetriesExceeded`, `KafkaJSNonRetriableError`,
 * both `retriable: false` for kafkajs's own loop), so the flag that matters is the one of the first cause
 * that is not such a wrapper — the same cause kafkajs reads when it decides to restart a consumer.
 */
export function isRetriableKafkaError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current instanceof KafkaJSError; depth++) {
    const cause: unknown = current.cause;
    if (!(cause instanceof KafkaJSError)) return current.retriable;
    current = cause;
  }
  return false;
}

/**
 * kafkajs's `fetchTopicOffsets` on a topic whose partitions have no leader in its metadata yet (a broker
 * restarted a moment ago): its offsets request covers no partition, and it throws a TypeError
 * (`Cannot destructure property 'partitions' of 'high.pop(...)'`) instead of a retriable error. As passing
 * as LEADER_NOT_AVAILABLE.
 */
function isLeaderlessOffsetsError(error: unknown): boolean {
  return error instanceof TypeError && error.message.startsWith("Cannot destructure property 'partitions'");
}

/** A failure of an offsets or topic read worth asking again: kafkajs's retriable ones, and its leaderless-offsets TypeError. */
export function isPassingKafkaFailure(error: unknown): boolean {
  return isRetriableKafkaError(error) || isLeaderlessOffsetsError(error);
}

/** A kafkajs failure as the port's callers see it: retriable as kafkajs's original cause says, that error its cause. */
class KafkaUnavailableError extends ReelstreamError {
  override readonly name = 'KafkaUnavailableError';
  constructor(cause: Error) {
    super('SERVICE_UNAVAILABLE', `Kafka: ${cause.message}`, { retriable: isRetriableKafkaError(cause), cause });
  }
}

/**
 * The adapter's edge: what a port call (publish, a topic check) rejects with. A kafkajs error becomes a
 * KafkaUnavailableError, so nothing past this adapter reads a flag off kafkajs's objects; anything else
 * (ours, or a bug) is left as it is.
 */
export function fromKafkajs(error: unknown): unknown {
  return error instanceof KafkaJSError && !(error instanceof ReelstreamError)
    ? new KafkaUnavailableError(error)
    : error;
}
