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
