/**
 * What the delay consumer does with a message it cannot put back on its topic (a failure it cannot
 * mend: failures.ts): the message is given up as its own topic's handler gives it up
 * (docs/adr/0035-handlers-give-up-what-they-cannot-mend.md), so that no delay partition is held for
 * ever behind it and the money it stands for is still settled:
 * - `wallet.requests`: a win is dead-lettered on its record; a bet or betwin fails for good with its
 *   cancel and the message is parked on the delay topic's `.dlq`;
 * - `wallet.cancels`: the cancel is never dropped: it waits on the longest delay topic, counted as
 *   `handler_failed`, as when the cancel handler keeps failing;
 * - `bonus.webhooks`: dead-lettered in its `webhookLetter` stream, then parked.
 * Anything else (no valid retry headers) was parked before it got here.
 */
import { Headers, Topics } from '@reelstream/contracts';
import type { Message } from '@reelstream/platform-ports';
import type { DispatchContext } from './dispatch-context.js';
import { keepCancelWaiting } from './handle-cancel.js';
import { giveUpWalletRequest } from './handle-request.js';
import { park } from './publish-outcome.js';

export type WebhookGiveUp = (message: Message, failure: Error) => Promise<void>;

export async function giveUpDelayedMessage(
  context: DispatchContext,
  message: Message,
  failure: Error,
  attempts: number,
  giveUpWebhook: WebhookGiveUp,
): Promise<void> {
  const target = message.headers[Headers.retryTopic];
  const reason = `not put back on ${String(target)}: ${failure.message}`;
  context.deps.log.error('delayed message given up', {
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    key: message.key,
    target,
    attempts,
    error: failure,
  });
  if (target === Topics.walletRequests) return giveUpWalletRequest(context, message, failure, attempts);
  if (target === Topics.walletCancels)
    return keepCancelWaiting(context, { ...message, topic: Topics.walletCancels }, 'handler_failed', reason, failure);
  if (target === Topics.bonusWebhooks) return giveUpWebhook(message, failure);
  await park(context, message, reason, attempts);
}
