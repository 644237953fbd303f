/**
 * Builders of `bonus.commands` messages and a client that sends them and parses the replies; and
 * the registrations and free spins that the gateway and the game-server decide in their own
 * processes (ADR 0011, ADR 0006), decided here the same way on the store the ledger reads.
 */
import { randomUUID } from 'node:crypto';
import {
  catalogLookup,
  FreeSpins,
  Registrations,
  type CommandOrigin,
  type OperatorPolicyLookup,
  type Registered,
} from '@reelstream/bonus-application';
import {
  bonusCommandKey,
  isRefusal,
  parseBonusReply,
  sha256HexOf,
  Topics,
  type BonusReply,
  type BonusRequestMessage,
  type BonusRequestType,
  type Refusal,
  type RegisterBonusCallData,
  type SettledFreeSpin,
  type SettleFreeSpinData,
  type StartedFreeSpin,
  type StartFreeSpinData,
} from '@reelstream/contracts';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type EventStore, type MessageBus } from '@reelstream/platform-ports';

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

/** A registration for the demo operator on games 101/102 of provider 1; requestHash over the body, as the gateway computes it. */
export function registration(input: RegistrationInput): RegisterBonusCallData {
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

/** The answer of a use case that must not refuse (the test fails with the refusal's code). */
export function accepted<Result>(answer: Result | Refusal): Result {
  if (isRefusal(answer)) throw new Error(`refused: ${answer.code} ${answer.message}`);
  return answer;
}

/**
 * What the gateway (registrations) and the game-server (free spins) decide in their own processes,
 * on the store the ledger under test reads, with the repository's catalog and the given operators.
 * A `commandId` given again is the same command resent.
 */
export class InProcessBonus {
  private readonly registrations: Registrations;
  private readonly freeSpins: FreeSpins;

  constructor(store: EventStore, operators: OperatorPolicyLookup, workerId = 9) {
    const ids = new TimeOrderedIdGenerator(workerId);
    this.registrations = new Registrations({
      store,
      clock: systemClock,
      ids,
      catalog: catalogLookup(loadCatalogFile()),
      operators,
    });
    this.freeSpins = new FreeSpins({ store, clock: systemClock, ids });
  }

  register(data: RegisterBonusCallData, commandId: string = randomUUID()): Promise<Registered | Refusal> {
    return this.registrations.register(data, originOf(data.operatorId, commandId));
  }

  startFreeSpin(data: StartFreeSpinData, commandId: string = randomUUID()): Promise<StartedFreeSpin | Refusal> {
    return this.freeSpins.startSpin(data, originOf(data.operatorId, commandId));
  }

  settleFreeSpin(data: SettleFreeSpinData, commandId: string = randomUUID()): Promise<SettledFreeSpin | Refusal> {
    return this.freeSpins.settleSpin(data, originOf(data.operatorId, commandId));
  }

  /** The player's active bonus call as the game-server reads it, folded from the player's stream. */
  active(operatorId: string, playerId: string) {
    return this.freeSpins.active(operatorId, playerId);
  }
}

function originOf(operatorId: string, commandId: string): CommandOrigin {
  return { commandId, correlationId: commandId, operatorId };
}
