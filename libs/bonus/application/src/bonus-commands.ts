/**
 * The bonus-ledger's command use cases: cancel (from `bonus.commands`), the expiry timer's expiry
 * and the campaign worker's registrations. A command's data becomes a domain command with the
 * ledger's time and ids; it is decided on the player's stream and answered with its result or a
 * refusal. Transport-free: the ledger's `bonus.commands` consumer turns the answer into a
 * `bonus.replies` value.
 */
import type { BonusDomainCommand } from '@reelstream/bonus-domain';
import { isRefusal, refusal, type BonusResult, type CancelBonusCallCommand, type Refusal } from '@reelstream/contracts';
import type { Clock, EventStore, IdGenerator } from '@reelstream/platform-ports';
import { contextOf, type CommandOrigin } from './command-origin.js';
import type { CatalogLookup, ExpiryTarget, OperatorPolicyLookup } from './ports.js';
import { readGuard } from './registration-guard.js';
import { Registrations, type RegisterBonusCallData, type Registered } from './registrations.js';
import { playerBonusStreams } from './streams.js';

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
  private readonly registrations: Registrations;

  constructor(private readonly deps: BonusCommandsDeps) {
    this.registrations = new Registrations(deps);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  private decide(operatorId: string, playerId: string, command: BonusDomainCommand, origin: CommandOrigin) {
    const extras = this.deps.maxAttempts === undefined ? {} : { retry: { maxAttempts: this.deps.maxAttempts } };
    const context = contextOf(origin, command.metadata.now);
    return playerBonusStreams.handle(this.deps.store, { operatorId, playerId }, command, context, extras);
  }

  /** D17, decided like the gateway decides it in its own process (registrations.ts): one implementation. */
  register(data: RegisterBonusCallData, origin: CommandOrigin): Promise<Registered | Refusal> {
    return this.registrations.register(data, origin);
  }

  /** D14: by issueId or platformId; canceled again is success, completed and expired are refused. */
  async cancel(
    data: CancelBonusCallCommand['data'],
    origin: CommandOrigin,
  ): Promise<BonusResult<'CancelBonusCall'> | Refusal> {
    const target = await this.locate(data.operatorId, data.issueId, data.platformId);
    if (!target)
      return refusal(
        'BONUS_NOT_FOUND',
        `no bonus call ${data.issueId ?? data.platformId} for operator ${data.operatorId}`,
      );
    const decided = await this.decide(
      data.operatorId,
      target.playerId,
      { type: 'CancelBonusCall', data: { issueId: target.issueId }, metadata: { now: this.now() } },
      origin,
    );
    if (isRefusal(decided)) return decided;
    return { issueId: target.issueId, alreadyCanceled: decided.events.length === 0 };
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
      const guard = await readGuard(this.deps.store, { operatorId, platformId });
      return guard && { issueId: guard.issueId, playerId: guard.playerId };
    }
    if (issueId === undefined) return undefined;
    const playerId = await this.deps.playerOf(operatorId, issueId);
    return playerId === undefined ? undefined : { issueId, playerId };
  }
}
