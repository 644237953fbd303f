/**
 * One `bonus.commands` message → its `bonus.replies` value: parsed with the contracts schema
 * (an invalid message is answered VALIDATION_FAILED, never retried), then routed to the command
 * or query use case. Exceptions (a store failure) propagate so the bus retries the message.
 */
import {
  bonusRequestMessage,
  errorReply,
  validationDetails,
  type BonusReply,
  type BonusRequestType,
} from '@reelstream/contracts';
import type { BonusCommands } from './bonus-commands.js';
import type { BonusQueries } from './bonus-queries.js';

type AnyBonusReply = BonusReply<BonusRequestType>;

export interface HandledRequest {
  /** The request type, when the message parsed. */
  type: BonusRequestType | undefined;
  reply: AnyBonusReply;
}

export class BonusRequestHandler {
  constructor(
    private readonly commands: BonusCommands,
    private readonly queries: BonusQueries,
  ) {}

  async handle(value: unknown): Promise<HandledRequest> {
    const parsed = bonusRequestMessage.safeParse(value);
    if (!parsed.success)
      return {
        type: undefined,
        reply: errorReply('VALIDATION_FAILED', 'not a valid bonus.commands message', validationDetails(parsed.error)),
      };
    const message = parsed.data;
    switch (message.type) {
      case 'RegisterBonusCall':
        return { type: message.type, reply: await this.commands.register(message) };
      case 'CancelBonusCall':
        return { type: message.type, reply: await this.commands.cancel(message) };
      case 'StartFreeSpin':
        return { type: message.type, reply: await this.commands.startFreeSpin(message) };
      case 'SettleFreeSpin':
        return { type: message.type, reply: await this.commands.settleFreeSpin(message) };
      case 'ExpireBonusCall':
        return { type: message.type, reply: await this.commands.expire(message) };
      case 'GetBonusCall':
        return { type: message.type, reply: await this.queries.get(message) };
      case 'ListBonusCalls':
        return { type: message.type, reply: await this.queries.list(message) };
      case 'GetActiveBonus':
        return { type: message.type, reply: await this.queries.active(message) };
      default: {
        const unexpected: never = message;
        throw new Error(`no handler for ${(unexpected as { type: string }).type}`);
      }
    }
  }
}
