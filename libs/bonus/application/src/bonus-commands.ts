/**
 * The bonus-ledger's command use cases: a bus command (contracts) becomes a domain command with
 * the ledger's time, the ids it draws, the operator's features and the catalog facts; it is
 * decided on the player's stream and answered with a `bonus.replies` value.
 */
import type { BonusDomainCommand } from '@reelstream/bonus-domain';
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
import type { Clock, EventStore, IdGenerator } from '@reelstream/platform-ports';
import { decideAndAppend, originOf, refused, type CommandOrigin, type Decided } from './decide-and-append.js';
import { FreeSpins } from './free-spins.js';
import type { CatalogLookup, ExpiryTarget, OperatorPolicyLookup } from './ports.js';
import { readGuard } from './registration-guard.js';
import { Registrations } from './registrations.js';

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
  private readonly registrations: Registrations;

  constructor(private readonly deps: BonusCommandsDeps) {
    this.freeSpins = new FreeSpins(deps);
    this.registrations = new Registrations(deps);
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

  /** D17, decided like the gateway decides it in its own process (registrations.ts): one implementation. */
  register(command: RegisterBonusCallCommand): Promise<BonusReply<'RegisterBonusCall'>> {
    return this.registrations.register(command);
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
