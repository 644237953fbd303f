/**
 * Bonus webhooks (issue 16, docs/adr/0008-bonus-webhooks.md): the dispatcher's consumer of
 * `bonus.webhooks`. One signed POST per attempt to the operator's `webhookUrl`; until a 2xx the
 * handler throws and the bus retries it with backoff, holding only that bonus's key (so one
 * bonus's changes arrive in order); after `WEBHOOK_MAX_ATTEMPTS` the bus parks it on
 * `bonus.webhooks.dlq` and moves on. The message is committed only after the receiver's 2xx or
 * the park: at least once. An operator without a `webhookUrl` gets none.
 */
import {
  bonusWebhookMessage,
  eventToAppend,
  ReelstreamError,
  webhookLetterStream,
  type BonusWebhook,
  type OperatorConfig,
} from '@reelstream/contracts';
import { BusHeaders, type Message } from '@reelstream/ports';
import type { DispatchContext } from './dispatch-context.js';
import { park } from './publish-outcome.js';

/** One attempt: exactly one signed HTTP POST, no retry of its own; a receiver's fault comes back as a value. */
export interface WebhookSender {
  post(
    operator: OperatorConfig & { webhookUrl: string },
    webhook: BonusWebhook,
    timeoutMs: number,
  ): Promise<{ delivered: true } | { delivered: false; reason: string }>;
}

/** Attempts before a webhook is parked: with `webhookRetryDelayMs` about 4 minutes of trying. */
export const WEBHOOK_MAX_ATTEMPTS = 10;
const WEBHOOK_TIMEOUT_MS = 5_000;

/** Backoff before the n-th retry: 1 s, 2 s, 4 s, … at most 60 s. */
export function webhookRetryDelayMs(attempt: number): number {
  return Math.min(60_000, 1_000 * 2 ** Math.max(0, attempt - 1));
}

class WebhookNotDelivered extends ReelstreamError {
  override readonly name = 'WebhookNotDelivered';
  constructor(eventId: string, reason: string) {
    super('WALLET_UNAVAILABLE', `webhook ${eventId} not delivered: ${reason}`, { retriable: true });
  }
}

export async function handleBonusWebhook(
  context: DispatchContext,
  sender: WebhookSender,
  message: Message,
  attempt: number,
): Promise<void> {
  const parsed = bonusWebhookMessage.safeParse(message.value);
  if (!parsed.success) {
    await park(context, message, `not a bonus webhook message: ${parsed.error.message.slice(0, 500)}`);
    return;
  }
  const { operatorId, webhook } = parsed.data;
  const operator = context.deps.operators.get(operatorId);
  if (!operator?.webhookUrl) {
    if (!operator)
      context.deps.log.warn('bonus webhook of an unknown operator dropped', { operatorId, eventId: webhook.eventId });
    return;
  }
  const result = await sender.post({ ...operator, webhookUrl: operator.webhookUrl }, webhook, WEBHOOK_TIMEOUT_MS);
  const fields = { operatorId, eventId: webhook.eventId, type: webhook.type, bonusId: webhook.bonusId, attempt };
  if (result.delivered) {
    context.deps.log.debug('bonus webhook delivered', fields);
    return;
  }
  if (attempt >= WEBHOOK_MAX_ATTEMPTS) {
    await recordDeadLetter(context, message, parsed.data, attempt, result.reason);
    context.deps.log.error(
      'bonus webhook given up: parked on bonus.webhooks.dlq; `POST /v1/webhooks/dead-letters/{eventId}/redrive` or `npm run wallet:webhooks:redrive` sends it again',
      { ...fields, reason: result.reason },
    );
  } else context.deps.log.info('bonus webhook not delivered; retried', { ...fields, reason: result.reason });
  throw new WebhookNotDelivered(webhook.eventId, result.reason);
}

/**
 * The dead letter in the event log (`webhookLetter-{operatorId}-{eventId}`), before the bus parks
 * the message: what the operator API lists and re-drives. A failed append is thrown: the bus tries
 * the message once more (or parks it: the re-drive CLI still finds it on the dead-letter topic).
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
  const event = {
    type: 'WebhookDeadLettered' as const,
    data: {
      operatorId,
      webhook,
      key: message.key ?? `${operatorId}:${webhook.bonusId}`,
      attempts,
      lastError: lastError.slice(0, 1_000) || 'not delivered',
      at,
    },
  };
  const header = message.headers[BusHeaders.correlationId];
  await context.deps.store.append(
    webhookLetterStream(operatorId, webhook.eventId),
    [
      eventToAppend(event, {
        correlationId:
          header !== undefined && /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/.test(header) ? header : webhook.eventId,
        causationId: `${message.topic}:${message.partition}:${message.offset}`.slice(0, 128),
        operatorId,
        occurredAt: at,
      }),
    ],
    { expectedRevision: 'any' },
  );
}
