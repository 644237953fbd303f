/**
 * Re-drive of parked bonus webhooks: every message parked on `bonus.webhooks.dlq` since
 * the last re-drive goes back to `bonus.webhooks`, with its own key, body and eventId, so it is
 * delivered again from its first attempt. A consumer group on the dead-letter topic remembers how
 * far the re-drives got; its offset moves only after the message is published again. With the
 * event store, each one re-sent is also recorded as re-driven in its `webhookLetter` stream, as the
 * operator API's re-drive records it, so the API no longer lists it.
 */
import { bonusWebhookMessage, Topics } from '@reelstream/contracts';
import { BusHeaders, isConsumerLagSource, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import { recordWebhookRedrive, webhookLetterStreams } from './webhook-letter-streams.js';

const REDRIVE_GROUP = 'wallet-dispatcher.webhooks-redrive';
const DEAD_LETTER_HEADERS = new Set<string>([
  BusHeaders.deadLetterReason,
  BusHeaders.deadLetterAttempts,
  BusHeaders.originalTopic,
  BusHeaders.originalPartition,
  BusHeaders.originalOffset,
]);

/** Re-publishes the parked webhooks and resolves with how many, once none is left (or none came for `idleMs`). */
export async function redriveParkedWebhooks(
  bus: MessageBus,
  options: { idleMs?: number; store?: EventStore; now?: () => Date } = {},
): Promise<number> {
  const deadLetterTopic = `${Topics.bonusWebhooks}.dlq`;
  const idleMs = options.idleMs ?? 2_000;
  let count = 0;
  let last = Date.now();
  const consumer = await bus.subscribe({
    groupId: REDRIVE_GROUP,
    topics: [deadLetterTopic],
    handler: async (message) => {
      const headers = Object.fromEntries(
        Object.entries(message.headers).filter(([name]) => !DEAD_LETTER_HEADERS.has(name)),
      );
      await bus.publish(Topics.bonusWebhooks, { key: message.key, value: message.value, headers });
      const parsed = bonusWebhookMessage.safeParse(message.value);
      if (options.store && parsed.success) {
        const { operatorId, webhook } = parsed.data;
        const key = { operatorId, eventId: webhook.eventId };
        const read = await webhookLetterStreams.load(options.store, key);
        if (read.state.standing && read.revision !== undefined) {
          const at = (options.now?.() ?? new Date()).toISOString();
          const id = `webhook-redrive-${webhook.eventId.slice(3)}`;
          await recordWebhookRedrive(
            options.store,
            key,
            { state: read.state, revision: read.revision },
            {
              context: { correlationId: id, causationId: id, operatorId, occurredAt: at },
              at,
            },
          );
        }
      }
      count += 1;
      last = Date.now();
    },
  });
  try {
    await consumer.ready;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (isConsumerLagSource(bus)) {
        const lag = await bus.consumerLag(REDRIVE_GROUP, [deadLetterTopic]);
        if (lag.every((partition) => partition.lag === 0)) break;
      } else if (Date.now() - last >= idleMs) break;
    }
  } finally {
    await consumer.stop();
  }
  return count;
}
