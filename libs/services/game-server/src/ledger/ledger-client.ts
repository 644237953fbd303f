/**
 * The game-server's side of the bonus-ledger protocol (services.md): `bonusRequestMessage` on
 * `bonus.commands` keyed by player, answered on `bonus.replies`. Replies are parsed with the
 * contract of what was asked; a refusal comes back as a value, a missing answer as
 * `LedgerTimeoutError` (the command may still be decided later: every one the game-server sends is
 * idempotent by roundId).
 */
import {
  bonusCommandKey,
  bonusRequestMessage,
  Headers,
  parseBonusReply,
  Topics,
  type BonusReply,
  type BonusRequestMessage,
  type BonusRequestType,
} from '@reelstream/contracts';
import { isRequestTimeout, type Clock, type IdGenerator, type MessageBus } from '@reelstream/ports';
import { traceContextFields } from '@reelstream/telemetry';

export type LedgerRequestType = Extract<BonusRequestType, 'GetActiveBonus' | 'StartFreeSpin' | 'SettleFreeSpin'>;
type DataOf<Type extends BonusRequestType> = Extract<BonusRequestMessage, { type: Type }>['data'];

export class LedgerTimeoutError extends Error {
  override readonly name = 'LedgerTimeoutError';
  constructor(
    readonly type: BonusRequestType,
    readonly timeoutMs: number,
  ) {
    super(`the bonus-ledger did not answer ${type} within ${timeoutMs} ms`);
  }
}

export interface LedgerClientDeps {
  bus: MessageBus;
  clock: Clock;
  ids: IdGenerator;
  timeoutMs: number;
}

export class LedgerClient {
  constructor(private readonly deps: LedgerClientDeps) {}

  async call<Type extends LedgerRequestType>(type: Type, data: DataOf<Type>, correlationId: string): Promise<BonusReply<Type>> {
    const message = bonusRequestMessage.parse({
      type,
      version: 1,
      data,
      metadata: {
        commandId: String(this.deps.ids.next()),
        correlationId,
        operatorId: data.operatorId,
        issuedAt: this.deps.clock.now().toISOString(),
        ...traceContextFields(),
      },
    });
    let value: unknown;
    try {
      const reply = await this.deps.bus.request(
        Topics.bonusCommands,
        { key: bonusCommandKey(message), value: message, headers: { [Headers.messageType]: type, [Headers.operatorId]: data.operatorId } },
        { replyTopic: Topics.bonusReplies, timeoutMs: this.deps.timeoutMs },
      );
      value = reply.value;
    } catch (error) {
      if (isRequestTimeout(error)) throw new LedgerTimeoutError(type, this.deps.timeoutMs);
      throw error;
    }
    return parseBonusReply(type, value);
  }
}
