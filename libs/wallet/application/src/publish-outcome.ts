/**
 * What the record owes others once a delivery is settled, published before the message is
 * committed (so a crash re-publishes it, never loses it): the cancel to deliver, the dead
 * letter, and the requester's reply. Each may therefore go out twice; their consumers dedupe
 * by transactionId.
 */
import { Headers, playerKey, Topics, walletReply, type WalletReply } from '@reelstream/contracts';
import { BusHeaders, reply, type Message } from '@reelstream/platform-ports';
import { deadLetterOf, pendingCancel, replyFromRecord, type WalletTxState } from '@reelstream/wallet-domain';
import type { DispatchContext } from './dispatch-context.js';

function isRequest(message: Message): boolean {
  return message.headers[BusHeaders.replyTo] !== undefined && message.headers[BusHeaders.correlationId] !== undefined;
}

export async function replyIfAsked(context: DispatchContext, message: Message, value: WalletReply): Promise<void> {
  if (isRequest(message))
    await reply(context.deps.bus, message, walletReply.parse(value), { [Headers.messageType]: 'WalletReply' });
}

export async function publishOutcome(context: DispatchContext, message: Message, state: WalletTxState): Promise<void> {
  const cancel = pendingCancel(state);
  if (cancel) await publishForPlayer(context, Topics.walletCancels, 'WalletCancelDelivery', cancel);
  const deadLetter = deadLetterOf(state);
  if (deadLetter) await publishForPlayer(context, Topics.walletDeadLetters, 'WalletDeadLetter', deadLetter);
  const answer = replyFromRecord(state);
  if (answer) await replyIfAsked(context, message, answer);
}

/** Keyed by the operator's player, so every message of one player stays in order on its partition. */
function publishForPlayer(
  context: DispatchContext,
  topic: string,
  messageType: string,
  value: { operatorId: string; playerId: string },
): Promise<void> {
  return context.deps.bus.publish(topic, {
    key: playerKey(value),
    value,
    headers: { [Headers.messageType]: messageType },
  });
}

/**
 * The consumer group of each topic the handlers park from, as `walletSubscriptions` names them: the
 * series its start zeroes, so that the `MessageParked` alert fires on the first one.
 */
const GROUP_OF_TOPIC: Readonly<Record<string, string>> = {
  [Topics.walletRequests]: 'wallet-dispatcher',
  [Topics.bonusWebhooks]: 'wallet-dispatcher.webhooks',
  [Topics.walletRetry1s]: 'wallet-dispatcher.delayed',
  [Topics.walletRetry5s]: 'wallet-dispatcher.delayed',
  [Topics.walletRetry30s]: 'wallet-dispatcher.delayed',
};

/** A message no handler can act on: set aside on `{topic}.dlq` with the reason, like the bus parks poison messages. */
export async function park(context: DispatchContext, message: Message, reason: string, attempts = 1): Promise<void> {
  context.deps.log.error('wallet message parked', {
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    reason,
  });
  const deadLetterTopic = `${message.topic}.dlq`;
  await context.deps.bus.publish(deadLetterTopic, {
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      [BusHeaders.deadLetterReason]: reason.slice(0, 1_000),
      [BusHeaders.deadLetterAttempts]: String(attempts),
      [BusHeaders.originalTopic]: message.topic,
      [BusHeaders.originalPartition]: String(message.partition),
      [BusHeaders.originalOffset]: message.offset,
    },
  });
  const groupId = GROUP_OF_TOPIC[message.topic] ?? 'wallet-dispatcher';
  context.deps.onParked?.({
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    key: message.key,
    deadLetterTopic,
    reason,
    attempts,
    groupId,
  });
}
