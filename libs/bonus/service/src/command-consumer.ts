/**
 * The bus consumer loop of `bonus.commands`: each message is handled (decided and appended, or
 * answered from the read model), then answered on its `reply-to` topic, then committed by the
 * bus. A crash anywhere before the commit redelivers the message, and the handlers are
 * idempotent, so nothing is lost or done twice. A message that keeps failing is answered
 * SERVICE_UNAVAILABLE on its last attempt (the requester is not left waiting) and committed.
 */
import { errorReply, Headers, Topics } from '@reelstream/contracts';
import { BusHeaders, reply, type Consumer, type MessageBus } from '@reelstream/platform-ports';
import type { Logger } from '@reelstream/platform-telemetry';
import type { BonusRequestHandler } from './bonus-request-handler.js';

const LEDGER_CONSUMER_GROUP = 'bonus-ledger';
const MAX_ATTEMPTS = 5;

export function subscribeBonusCommands(
  bus: MessageBus,
  handler: BonusRequestHandler,
  logger: Logger,
  groupId = LEDGER_CONSUMER_GROUP,
): Promise<Consumer> {
  return bus.subscribe({
    groupId,
    topics: [Topics.bonusCommands],
    maxAttempts: MAX_ATTEMPTS,
    handler: async (message, { attempt }) => {
      let handled;
      try {
        handled = await handler.handle(message.value);
      } catch (error) {
        logger.error('bonus request failed', {
          error,
          attempt,
          offset: message.offset,
          partition: message.partition,
          key: message.key,
        });
        if (attempt < MAX_ATTEMPTS) throw error;
        handled = {
          type: undefined,
          reply: errorReply('SERVICE_UNAVAILABLE', 'the bonus ledger could not handle the request; retry later'),
        };
      }
      if (!handled.reply.ok)
        logger.debug('bonus request refused', { type: handled.type, code: handled.reply.error.code, key: message.key });
      if (message.headers[BusHeaders.replyTo] === undefined) return;
      await reply(
        bus,
        message,
        handled.reply,
        handled.type === undefined ? {} : { [Headers.messageType]: handled.type },
      );
    },
  });
}
