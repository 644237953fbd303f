/**
 * Bonus webhooks (docs/adr/0008-bonus-webhooks.md, docs/adr/0013-webhook-bulkhead-and-delayed-retry.md):
 * the dispatcher's consumer of `bonus.webhooks`. One signed POST per attempt to the operator's
 * `webhookUrl`, through the operator's own webhook bulkhead (in-flight limit and circuit). A webhook
 * not delivered is rescheduled on a delay topic with its attempts in a header and committed, so it
 * holds no consumer slot while it waits: one operator's failing endpoint does not delay the
 * others'. One bonus's changes stay in order: while a change of a bonus waits for its retry, its
 * later changes follow it through the delay topics instead of overtaking it. After
 * `WEBHOOK_MAX_ATTEMPTS` the webhook is recorded as a dead letter and parked on
 * `bonus.webhooks.dlq`. The message is committed only once it is delivered, rescheduled or parked:
 * at least once. An operator without a `webhookUrl` gets none.
 */
import {
  bonusWebhookKey,
  bonusWebhookMessage,
  Headers,
  Topics,
  type BonusWebhook,
  type OperatorConfig,
} from '@reelstream/contracts';
import { BusHeaders, type Message } from '@reelstream/platform-ports';
import type { DispatchContext } from './dispatch-context.js';
import type { OperatorBulkhead } from './operator-bulkhead.js';
import { asError, givesUp } from './failures.js';
import { park } from './publish-outcome.js';
import { reschedule } from './reschedule.js';
import { letterContext, webhookLetterStreams } from './webhook-letter-streams.js';

/** One attempt: exactly one signed HTTP POST, no retry of its own; a receiver's fault comes back as a value. */
export interface WebhookSender {
  post(
    operator: OperatorConfig & { webhookUrl: string },
    webhook: BonusWebhook,
    timeoutMs: number,
  ): Promise<{ delivered: true } | { delivered: false; reason: string }>;
}

/** Attempts before a webhook is parked: with `webhookRetryDelayMs` on the delay topics about 4 minutes of trying. */
export const WEBHOOK_MAX_ATTEMPTS = 10;
const WEBHOOK_TIMEOUT_MS = 5_000;
/** How soon a later change of a bonus whose earlier change waits looks again (the shortest delay topic). */
const FOLLOWER_DELAY_MS = 1_000;

/** Backoff before the n-th retry: 1 s, 2 s, 4 s, … at most 60 s (rounded up to a delay topic's delay). */
function webhookRetryDelayMs(attempt: number): number {
  return Math.min(60_000, 1_000 * 2 ** Math.max(0, attempt - 1));
}

/** A webhook's attempts before this delivery (0 for a first delivery or a re-drive). */
function attemptsOf(message: Message): number {
  const count = Number(message.headers[Headers.webhookAttempts] ?? '0');
  return Number.isSafeInteger(count) && count >= 0 ? count : 0;
}

export interface WebhookDeliveryOptions {
  sender: WebhookSender;
  /** The operators' webhook compartments: their own, not the wallet callbacks'. */
  bulkhead: OperatorBulkhead;
  retryDelayMs?: (attempt: number) => number;
}

/** Per bonus key, the eventIds out on the delay topics in the order they first came. */
class WaitingWebhooks {
  private readonly byKey = new Map<string, string[]>();

  /** The one of the key's webhooks that is sent; the others follow it. */
  first(key: string): string | undefined {
    return this.byKey.get(key)?.[0];
  }

  wait(key: string, eventId: string): void {
    const queue = this.byKey.get(key) ?? [];
    if (!queue.includes(eventId)) queue.push(eventId);
    this.byKey.set(key, queue);
  }

  /** Delivered, parked or dropped: the key's later webhooks wait for it no more. */
  settled(key: string, eventId: string): void {
    const queue = this.byKey.get(key);
    if (!queue) return;
    const index = queue.indexOf(eventId);
    if (index >= 0) queue.splice(index, 1);
    if (queue.length === 0) this.byKey.delete(key);
  }
}

interface WebhookMessage {
  readonly operatorId: string;
  readonly webhook: BonusWebhook;
}

/** The bus key of a webhook's bonus: its changes are handled in order. */
function keyOf(message: Message, { operatorId, webhook }: WebhookMessage): string {
  return message.key ?? bonusWebhookKey({ operatorId, bonusId: webhook.bonusId });
}

/**
 * The handler of `bonus.webhooks`. It remembers, per bonus key, the eventIds out on the delay
 * topics in the order they first came: only the first of them is sent, the others follow it.
 * This memory is the process's: a webhook that comes back after a restart of the dispatcher is
 * sent at once, even if an earlier change of its bonus is still waiting (its `sequence` shows it).
 */
export function bonusWebhookHandler(context: DispatchContext, options: WebhookDeliveryOptions): BonusWebhookHandler {
  const waiting = new WaitingWebhooks();
  const giveUpDelayed = async (message: Message, failure: Error): Promise<void> => {
    const given = await giveUpDelayedWebhook(context, message, failure);
    // Its bonus's later changes, following it through the delay topics, wait for it no more.
    if (given) waiting.settled(given.key, given.eventId);
  };
  const handle = async (message: Message, busAttempt = 1): Promise<void> => {
    const parsed = bonusWebhookMessage.safeParse(message.value);
    if (!parsed.success) {
      await park(context, message, `not a bonus webhook message: ${parsed.error.message.slice(0, 500)}`);
      return;
    }
    try {
      await deliverWebhook(context, options, waiting, message, parsed.data);
    } catch (error) {
      // A failure it cannot mend (failures.ts): given up like an undelivered webhook.
      if (!givesUp(error, busAttempt)) throw error;
      await giveUp(context, message, parsed.data, attemptsOf(message) + 1, `not handled: ${asError(error).message}`);
      waiting.settled(keyOf(message, parsed.data), parsed.data.webhook.eventId);
    }
  };
  return Object.assign(handle, { giveUpDelayed });
}

export interface BonusWebhookHandler {
  (message: Message, busAttempt?: number): Promise<void>;
  /** A webhook the delay consumer cannot put back on `bonus.webhooks` (see `giveUpDelayedWebhook`). */
  giveUpDelayed(message: Message, failure: Error): Promise<void>;
}

/**
 * A webhook the delay consumer cannot put back on `bonus.webhooks`: recorded as a dead letter and
 * parked, as after its last attempt; its bonus key and eventId, or none when it is no webhook (parked).
 */
export async function giveUpDelayedWebhook(
  context: DispatchContext,
  message: Message,
  failure: Error,
): Promise<{ key: string; eventId: string } | undefined> {
  const parsed = bonusWebhookMessage.safeParse(message.value);
  if (!parsed.success) {
    await park(context, message, `not a bonus webhook message: ${parsed.error.message.slice(0, 500)}`);
    return undefined;
  }
  const reason = `not put back on ${Topics.bonusWebhooks}: ${failure.message}`;
  await giveUp(context, message, parsed.data, Math.max(1, attemptsOf(message)), reason);
  return { key: keyOf(message, parsed.data), eventId: parsed.data.webhook.eventId };
}

/** One delivery of a webhook, or its rescheduling behind an earlier change of its bonus or after a failed attempt. */
async function deliverWebhook(
  context: DispatchContext,
  options: WebhookDeliveryOptions,
  waiting: WaitingWebhooks,
  message: Message,
  parsed: WebhookMessage,
): Promise<void> {
  const { operatorId, webhook } = parsed;
  const key = keyOf(message, parsed);
  const operator = context.deps.operators.get(operatorId);
  if (!operator?.webhookUrl) {
    if (!operator)
      context.deps.log.warn('bonus webhook of an unknown operator dropped', { operatorId, eventId: webhook.eventId });
    // Dropped, so its bonus's later changes (dropped too, or sent if a webhookUrl came back) wait for it no more.
    waiting.settled(key, webhook.eventId);
    return;
  }
  const previous = attemptsOf(message);
  const fields = { operatorId, eventId: webhook.eventId, type: webhook.type, bonusId: webhook.bonusId };
  const first = waiting.first(key);
  if (first !== undefined && first !== webhook.eventId) {
    waiting.wait(key, webhook.eventId);
    await reschedule(context, message, FOLLOWER_DELAY_MS, `follows ${first}, an earlier change of its bonus`, {
      [Headers.webhookAttempts]: String(previous),
    });
    return;
  }
  const url = operator.webhookUrl;
  const sent = await options.bulkhead.run(
    operatorId,
    () => options.sender.post({ ...operator, webhookUrl: url }, webhook, WEBHOOK_TIMEOUT_MS),
    (result) => result.delivered,
  );
  const attempt = previous + 1;
  if ('delivered' in sent && sent.delivered) {
    waiting.settled(key, webhook.eventId);
    context.deps.log.debug('bonus webhook delivered', { ...fields, attempt });
    return;
  }
  const reason = sent.reason;
  if (attempt >= WEBHOOK_MAX_ATTEMPTS) {
    await giveUp(context, message, parsed, attempt, reason);
    waiting.settled(key, webhook.eventId);
    return;
  }
  waiting.wait(key, webhook.eventId);
  const delayMs = Math.max(
    (options.retryDelayMs ?? webhookRetryDelayMs)(attempt),
    'retryAfterMs' in sent ? sent.retryAfterMs : 0,
  );
  await reschedule(context, message, delayMs, reason, { [Headers.webhookAttempts]: String(attempt) });
  context.deps.log.info('bonus webhook not delivered; rescheduled', { ...fields, attempt, reason });
}

/** The last attempt failed: the webhook is recorded as a dead letter and parked, to be re-driven by hand. */
async function giveUp(
  context: DispatchContext,
  message: Message,
  parsed: WebhookMessage,
  attempt: number,
  reason: string,
): Promise<void> {
  const { operatorId, webhook } = parsed;
  await recordDeadLetter(context, message, parsed, attempt, reason);
  context.deps.log.error(
    'bonus webhook given up: parked on bonus.webhooks.dlq; `POST /v1/webhooks/dead-letters/{eventId}/redrive` or `npm run wallet:webhooks:redrive` sends it again',
    { operatorId, eventId: webhook.eventId, type: webhook.type, bonusId: webhook.bonusId, attempt, reason },
  );
  await park(context, withoutRetryHeaders(message), `${reason} (after ${attempt} attempts)`, attempt);
}

/** The parked copy starts afresh when re-driven: no attempts, no delay-topic bookkeeping. */
function withoutRetryHeaders(message: Message): Message {
  const headers = { ...message.headers };
  delete headers[Headers.webhookAttempts];
  delete headers[Headers.retryCount];
  return { ...message, headers };
}

/**
 * The dead letter in the event log (`webhookLetter-{operatorId}-{eventId}`), before the message is
 * parked: what the operator API lists and re-drives. A failed append is thrown: the bus retries
 * the message in place (its last attempt again) until the store takes it, and only then is it parked.
 */
async function recordDeadLetter(
  context: DispatchContext,
  message: Message,
  parsed: { operatorId: string; webhook: BonusWebhook },
  attempts: number,
  lastError: string,
): Promise<void> {
  const { operatorId, webhook } = parsed;
  const at = context.now();
  const letter = {
    operatorId,
    webhook,
    key: message.key ?? `${operatorId}:${webhook.bonusId}`,
    attempts,
    lastError: lastError.slice(0, 1_000) || 'not delivered',
    at,
  };
  const header = message.headers[BusHeaders.correlationId];
  // A letter that stands already (this message handled again) is not written twice.
  await webhookLetterStreams.handle(
    context.deps.store,
    { operatorId, eventId: webhook.eventId },
    { type: 'DeadLetter', letter },
    letterContext({
      correlationId:
        header !== undefined && /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/.test(header) ? header : webhook.eventId,
      causationId: `${message.topic}:${message.partition}:${message.offset}`.slice(0, 128),
      operatorId,
      occurredAt: at,
    }),
  );
}
