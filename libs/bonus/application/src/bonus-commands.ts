/**
 * The bonus-ledger's command use cases: a bus command (contracts) becomes a domain command with
 * the ledger's time, the ids it draws, the operator's features and the catalog facts; it is
 * decided on the player's stream and answered with a `bonus.replies` value.
 */
import { bonusDecider, type BonusDomainCommand, type RegisterBonusCall } from '@reelstream/bonus-domain';
import {
  bonusRequestStream,
  errorReply,
  isRefusal,
  okReply,
  playerBonusStream,
  type BonusReply,
  type CancelBonusCallCommand,
  type ExpireBonusCallCommand,
  type Refusal,
  type RegisterBonusCallCommand,
  type SettleFreeSpinCommand,
  type StartFreeSpinCommand,
} from '@reelstream/contracts';
import type { Clock, EventStore, IdGenerator } from '@reelstream/ports';
import { decideAndAppend, originOf, refused, type CommandOrigin, type Decided } from './decide-and-append.js';
import { FreeSpins } from './free-spins.js';
import { loadPlayerAccount } from './player-account.js';
import type { CatalogLookup, ExpiryTarget, OperatorPolicyLookup } from './ports.js';
import { readGuard, reserveGuard } from './registration-guard.js';

export interface BonusCommandsDeps {
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  catalog: CatalogLookup;
  operators: OperatorPolicyLookup;
  /** Which player a bonus call of the operator belongs to (the read model, caught up when needed). */
  playerOf: (operatorId: string, issueId: number) => Promise<string | undefined>;
  maxAttempts?: number;
}

export class BonusCommands {
  private readonly freeSpins: FreeSpins;

  constructor(private readonly deps: BonusCommandsDeps) {
    this.freeSpins = new FreeSpins(deps);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  private decide(
    operatorId: string,
    playerId: string,
    command: BonusDomainCommand,
    origin: CommandOrigin,
  ): Promise<Decided | Refusal> {
    const options = this.deps.maxAttempts === undefined ? {} : { maxAttempts: this.deps.maxAttempts };
    return decideAndAppend(this.deps.store, playerBonusStream(operatorId, playerId), command, origin, options);
  }

  /** The domain command of a registration: the request with the catalog facts and the operator's terms. */
  private registrationOf(
    data: RegisterBonusCallCommand['data'],
    policy: NonNullable<ReturnType<OperatorPolicyLookup>>,
    now: string,
    issueId: number,
  ): RegisterBonusCall {
    return {
      type: 'RegisterBonusCall',
      data: {
        issueId,
        platformId: data.platformId,
        operatorId: data.operatorId,
        playerId: data.playerId,
        providerId: data.providerId,
        gameIds: data.gameIds,
        bonusType: data.bonusType,
        currency: data.currency,
        callAmountMinor: data.callAmountMinor,
        spinAmount: data.spinAmount ?? null,
        baseBetAmountMinor: data.baseBetAmountMinor ?? null,
        expireAt: data.expireAt,
        catalog: {
          providerExists: this.deps.catalog.hasProvider(data.providerId),
          games: data.gameIds.flatMap((gameId) => this.deps.catalog.game(gameId, data.currency) ?? []),
        },
        features: policy.features,
        terms: { currencies: policy.currencies, limits: policy.limits },
      },
      metadata: { now },
    };
  }

  /** D17: idempotent by platformId through the guard stream; refusals write nothing. */
  async register(command: RegisterBonusCallCommand): Promise<BonusReply<'RegisterBonusCall'>> {
    const { data } = command;
    const policy = this.deps.operators(data.operatorId);
    if (!policy) return errorReply('FORBIDDEN', `operator ${data.operatorId} is not configured on this platform`);
    const { store } = this.deps;
    const origin = originOf(command.metadata);
    const guardStream = bonusRequestStream(data.operatorId, data.platformId);
    const playerStream = playerBonusStream(data.operatorId, data.playerId);
    const now = this.now();
    const toDomain = (issueId: number): RegisterBonusCall => this.registrationOf(data, policy, now, issueId);

    // Two passes at most: the second only when another request reserved this platformId meanwhile.
    for (let pass = 0; pass < 2; pass++) {
      const guard = await readGuard(store, guardStream);
      if (guard) {
        if (guard.requestHash !== data.requestHash || guard.playerId !== data.playerId) {
          return errorReply(
            'PLATFORM_ID_CONFLICT',
            `platformId ${data.platformId} was already registered with a different request body`,
          );
        }
        // A resend: the registration is in the player's stream already (replayed), or an earlier
        // attempt stopped between the reservation and the registration, which is completed now.
        const decided = await this.decide(data.operatorId, data.playerId, toDomain(guard.issueId), origin);
        if (isRefusal(decided)) return refused(decided);
        return okReply({ issueId: guard.issueId, replayed: decided.events.length === 0 });
      }

      const issueId = this.deps.ids.next();
      const registration = toDomain(issueId);
      const loaded = await loadPlayerAccount(store, playerStream);
      const check = bonusDecider.decide(registration, loaded.account);
      // A refused request reserves nothing: the operator may correct it and send it again.
      if (isRefusal(check)) return refused(check);
      if (
        !(await reserveGuard(
          store,
          guardStream,
          { issueId, requestHash: data.requestHash, playerId: data.playerId, acceptedAt: now },
          origin,
        ))
      )
        continue;
      const options = this.deps.maxAttempts === undefined ? { loaded } : { loaded, maxAttempts: this.deps.maxAttempts };
      const decided = await decideAndAppend(store, playerStream, registration, origin, options);
      if (isRefusal(decided)) return refused(decided);
      return okReply({ issueId, replayed: false });
    }
    return errorReply('SERVICE_UNAVAILABLE', `platformId ${data.platformId} is being registered concurrently; retry`);
  }

  /** D14: by issueId or platformId; canceled again is success, completed and expired are refused. */
  async cancel(command: CancelBonusCallCommand): Promise<BonusReply<'CancelBonusCall'>> {
    const { data } = command;
    const target = await this.locate(data.operatorId, data.issueId, data.platformId);
    if (!target)
      return errorReply(
        'BONUS_NOT_FOUND',
        `no bonus call ${data.issueId ?? data.platformId} for operator ${data.operatorId}`,
      );
    const decided = await this.decide(
      data.operatorId,
      target.playerId,
      { type: 'CancelBonusCall', data: { issueId: target.issueId }, metadata: { now: this.now() } },
      originOf(command.metadata),
    );
    if (isRefusal(decided)) return refused(decided);
    return okReply({ issueId: target.issueId, alreadyCanceled: decided.events.length === 0 });
  }

  /** Decided like the game-server decides it in its own process (free-spins.ts): one implementation. */
  startFreeSpin(command: StartFreeSpinCommand): Promise<BonusReply<'StartFreeSpin'>> {
    return this.freeSpins.startSpin(command);
  }

  settleFreeSpin(command: SettleFreeSpinCommand): Promise<BonusReply<'SettleFreeSpin'>> {
    return this.freeSpins.settleSpin(command);
  }

  async expire(command: ExpireBonusCallCommand): Promise<BonusReply<'ExpireBonusCall'>> {
    const { operatorId, playerId, issueId } = command.data;
    const decided = await this.decide(
      operatorId,
      playerId,
      { type: 'ExpireBonusCall', data: { issueId }, metadata: { now: this.now() } },
      originOf(command.metadata),
    );
    if (isRefusal(decided)) return refused(decided);
    return okReply({ issueId, expired: decided.events.length > 0 });
  }

  /** The expiry timer's command: decided in-process, with an id that names the bonus call. */
  async expireDue(target: ExpiryTarget): Promise<boolean> {
    const commandId = `expire:${target.issueId}`;
    const decided = await this.decide(
      target.operatorId,
      target.playerId,
      { type: 'ExpireBonusCall', data: { issueId: target.issueId }, metadata: { now: this.now() } },
      { commandId, correlationId: commandId, operatorId: target.operatorId },
    );
    return !isRefusal(decided) && decided.events.length > 0;
  }

  private async locate(
    operatorId: string,
    issueId: number | undefined,
    platformId: string | undefined,
  ): Promise<{ issueId: number; playerId: string } | undefined> {
    if (platformId !== undefined) {
      const guard = await readGuard(this.deps.store, bonusRequestStream(operatorId, platformId));
      return guard && { issueId: guard.issueId, playerId: guard.playerId };
    }
    if (issueId === undefined) return undefined;
    const playerId = await this.deps.playerOf(operatorId, issueId);
    return playerId === undefined ? undefined : { issueId, playerId };
  }
}
