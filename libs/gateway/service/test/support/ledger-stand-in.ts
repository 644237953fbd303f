/**
 * A stand-in for the bonus-ledger, for unit tests only: a real consumer on the real SQLite bus
 * that parses every command with the contract and answers with a contract reply chosen by the
 * test. The integration tests run against the real ledger.
 */
import { bonusRequestMessage, Topics, type BonusRequestMessage } from '@reelstream/contracts';
import { reply, type Consumer, type MessageBus } from '@reelstream/platform-ports';

/** Return this to answer nothing (the gateway then times out). */
const NO_REPLY = Symbol('no reply');

export type StandInAnswer = (message: BonusRequestMessage, headers: Record<string, string>) => unknown;

export interface LedgerStandIn {
  readonly received: BonusRequestMessage[];
  readonly headers: Record<string, string>[];
  answerWith(answer: StandInAnswer): void;
  stop(): Promise<void>;
}

export async function startLedgerStandIn(bus: MessageBus, initial: StandInAnswer): Promise<LedgerStandIn> {
  const received: BonusRequestMessage[] = [];
  const headers: Record<string, string>[] = [];
  let answer = initial;
  const consumer: Consumer = await bus.subscribe({
    groupId: 'ledger-stand-in',
    topics: [Topics.bonusCommands],
    maxAttempts: 1,
    handler: async (message) => {
      const command = bonusRequestMessage.parse(message.value);
      received.push(command);
      headers.push(message.headers);
      const value = await answer(command, message.headers);
      if (value !== NO_REPLY) await reply(bus, message, value);
    },
  });
  await consumer.ready;
  return {
    received,
    headers,
    answerWith(next) {
      answer = next;
    },
    stop: () => consumer.stop(),
  };
}
