/** Builders of `bonus.commands` messages and a client that sends them and parses the replies. */
import { randomUUID } from 'node:crypto';
import {
  bonusCommandKey,
  parseBonusReply,
  sha256HexOf,
  Topics,
  type BonusReply,
  type BonusRequestMessage,
  type BonusRequestType,
} from '@reelstream/contracts';
import type { MessageBus } from '@reelstream/platform-ports';

export const OPERATOR = 'demo';

type DataOf<Type extends BonusRequestType> = Extract<BonusRequestMessage, { type: Type }>['data'];

export function message<Type extends BonusRequestType>(
  type: Type,
  data: DataOf<Type>,
  commandId: string = randomUUID(),
): Extract<BonusRequestMessage, { type: Type }> {
  return {
    type,
    version: 1,
    data,
    metadata: { commandId, correlationId: commandId, operatorId: data.operatorId, issuedAt: new Date().toISOString() },
  } as Extract<BonusRequestMessage, { type: Type }>;
}

export interface RegistrationInput {
  platformId: string;
  playerId: string;
  spinAmount?: number;
  callAmountMinor?: number;
  baseBetAmountMinor?: number;
  gameIds?: number[];
  providerId?: number;
  bonusType?: 1 | 2;
  expireAt?: string;
}

/** A RegisterBonusCall for the demo operator on games 101/102 of provider 1; requestHash over the body, as the gateway computes it. */
export function registration(input: RegistrationInput): DataOf<'RegisterBonusCall'> {
  const body = {
    operatorId: OPERATOR,
    platformId: input.platformId,
    playerId: input.playerId,
    providerId: input.providerId ?? 1,
    gameIds: input.gameIds ?? [101, 102],
    bonusType: input.bonusType ?? 1,
    currency: 'EUR',
    callAmountMinor: input.callAmountMinor ?? 5_000,
    spinAmount: input.spinAmount ?? 10,
    baseBetAmountMinor: input.baseBetAmountMinor ?? 20,
    expireAt: input.expireAt ?? new Date(Date.now() + 86_400_000).toISOString(),
  };
  return { ...body, requestHash: sha256HexOf(JSON.stringify(body)) };
}

export class BonusClient {
  constructor(
    private readonly bus: MessageBus,
    private readonly timeoutMs = 15_000,
  ) {}

  async send<Type extends BonusRequestType>(
    request: Extract<BonusRequestMessage, { type: Type }>,
  ): Promise<BonusReply<Type>> {
    const response = await this.bus.request(
      Topics.bonusCommands,
      { key: bonusCommandKey(request), value: request },
      { replyTopic: Topics.bonusReplies, timeoutMs: this.timeoutMs, correlationId: request.metadata.correlationId },
    );
    return parseBonusReply(request.type, response.value) as BonusReply<Type>;
  }

  ask<Type extends BonusRequestType>(type: Type, data: DataOf<Type>): Promise<BonusReply<Type>> {
    return this.send(message(type, data));
  }

  /** The result of a request that must succeed. */
  async ok<Type extends BonusRequestType>(
    type: Type,
    data: DataOf<Type>,
  ): Promise<Extract<BonusReply<Type>, { ok: true }>['result']> {
    const answer = await this.ask(type, data);
    if (!answer.ok) throw new Error(`${type} refused: ${answer.error.code} ${answer.error.message}`);
    return answer.result;
  }
}
