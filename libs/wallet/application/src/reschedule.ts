/**
 * Durable rescheduling (docs/adr/0002-cancel-delivery.md): a message that cannot be acted on now
 * — a cancel the operator did not acknowledge, a cancel or win of an operator whose circuit is
 * open, a cancel of an operator that is not configured, a bonus webhook waiting for its next attempt
 * (docs/adr/0013-webhook-bulkhead-and-delayed-retry.md) — is re-published to a delay topic with
 * a not-before time, and the original is committed, so its partition moves on. The delay
 * consumer re-publishes it to where it came from when due. Each delay topic holds one delay, so
 * its head is always the earliest due: waiting for the head never holds a message that is due.
 */
import { Headers, ReelstreamError, Topics } from '@reelstream/contracts';
import type { Message } from '@reelstream/platform-ports';
import type { DispatchContext } from './dispatch-context.js';
import { park } from './publish-outcome.js';

export interface RetryTier {
  readonly topic: string;
  readonly delayMs: number;
}

/** The longest delay topic: an operator that is not configured is looked at again this often. */
export const LONGEST_RETRY_TIER: RetryTier = { topic: Topics.walletRetry30s, delayMs: 30_000 };

export const RetryTiers: readonly RetryTier[] = [
  { topic: Topics.walletRetry1s, delayMs: 1_000 },
  { topic: Topics.walletRetry5s, delayMs: 5_000 },
  LONGEST_RETRY_TIER,
];

/** Topics a delayed message may go back to. */
const RETURNABLE = new Set<string>([Topics.walletCancels, Topics.walletRequests, Topics.bonusWebhooks]);

/** The shortest delay topic whose delay is at least `delayMs` (the longest for anything beyond it). */
function retryTierFor(delayMs: number): RetryTier {
  return RetryTiers.find((tier) => tier.delayMs >= delayMs) ?? LONGEST_RETRY_TIER;
}

/** How many times this message was rescheduled before (0 for a first delivery). */
export function retryCountOf(message: Message): number {
  const count = Number(message.headers[Headers.retryCount] ?? '0');
  return Number.isSafeInteger(count) && count >= 0 ? count : 0;
}

export interface Rescheduled {
  topic: string;
  notBefore: string;
  retryCount: number;
}

/** Re-publishes `message` to the delay topic for at least `delayMs`; the caller then returns, so the original is committed. */
export async function reschedule(
  context: DispatchContext,
  message: Message,
  delayMs: number,
  reason: string,
  headers: Record<string, string> = {},
): Promise<Rescheduled> {
  const tier = retryTierFor(delayMs);
  const notBefore = new Date(context.deps.clock.now().getTime() + tier.delayMs).toISOString();
  const retryCount = retryCountOf(message) + 1;
  await context.deps.bus.publish(tier.topic, {
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      ...headers,
      [Headers.retryTopic]: message.topic,
      [Headers.notBefore]: notBefore,
      [Headers.retryCount]: String(retryCount),
    },
  });
  context.deps.log.info('rescheduled', {
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    key: message.key,
    delayTopic: tier.topic,
    notBefore,
    retryCount,
    reason,
  });
  return { topic: tier.topic, notBefore, retryCount };
}

/** Thrown by the delay consumer while the head of its partition is not due: the bus delivers it again. */
export class NotDueYet extends ReelstreamError {
  override readonly name = 'NotDueYet';
  constructor(readonly notBefore: string) {
    super('SERVICE_UNAVAILABLE', `not due before ${notBefore}`, { retriable: true });
  }
}

/** Waits at most this long inside one handler call, so stop() is never held long by a waiting head. */
const MAX_WAIT_MS = 1_000;

/** The handler of the delay topics: waits until the message is due, then re-publishes it to its topic. */
export async function handleDelayedMessage(context: DispatchContext, message: Message): Promise<void> {
  const target = message.headers[Headers.retryTopic];
  const notBeforeText = message.headers[Headers.notBefore];
  const notBefore = notBeforeText === undefined ? Number.NaN : Date.parse(notBeforeText);
  if (target === undefined || !RETURNABLE.has(target) || Number.isNaN(notBefore)) {
    await park(
      context,
      message,
      `delayed message without a valid ${Headers.retryTopic} (${String(target)}) or ${Headers.notBefore} (${String(notBeforeText)})`,
    );
    return;
  }
  const wait = notBefore - context.deps.clock.now().getTime();
  if (wait > 0) {
    await context.sleep(Math.min(wait, MAX_WAIT_MS));
    if (notBefore > context.deps.clock.now().getTime()) throw new NotDueYet(notBeforeText ?? '');
  }
  const headers = { ...message.headers };
  delete headers[Headers.retryTopic];
  delete headers[Headers.notBefore];
  await context.deps.bus.publish(target, { key: message.key, value: message.value, headers });
}
