/**
 * Free spins on the player's `playerBonus` stream (docs/architecture.md flow 4, ADR 0006): the
 * player's active bonus call (D21), StartFreeSpin and SettleFreeSpin, each decided by
 * `bonusDecider` through the one command handler, with the stream's expected revision as the lock.
 * Transport-free: each takes the command's data and who asks, and answers its result or a refusal.
 * The game-server runs it in its own process; no bus message carries a free spin.
 */
import { activeBonus, completedBySpin } from '@reelstream/bonus-domain';
import {
  isRefusal,
  type BonusCallRecord,
  type Refusal,
  type SettledFreeSpin,
  type SettleFreeSpinData,
  type StartedFreeSpin,
  type StartFreeSpinData,
} from '@reelstream/contracts';
import type { Clock, EventStore, IdGenerator } from '@reelstream/platform-ports';
import { bonusCallRecordOf } from './bonus-record-projection.js';
import { contextOf, type CommandOrigin } from './command-origin.js';
import { playerBonusStreams } from './streams.js';

export interface FreeSpinsDeps {
  store: EventStore;
  clock: Clock;
  /** Draws the transactionId of each settled spin's win. */
  ids: IdGenerator;
  maxAttempts?: number;
}

export class FreeSpins {
  constructor(private readonly deps: FreeSpinsDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  private extras(): { retry?: { maxAttempts: number } } {
    return this.deps.maxAttempts === undefined ? {} : { retry: { maxAttempts: this.deps.maxAttempts } };
  }

  /**
   * The player's active bonus call as the read model records it, folded from the player's stream:
   * everything appended to it before the read is in the answer (the read model only catches up).
   */
  async active(operatorId: string, playerId: string): Promise<BonusCallRecord | null> {
    const { state } = await playerBonusStreams.load(this.deps.store, { operatorId, playerId });
    const bonus = activeBonus(state);
    return bonus === undefined ? null : bonusCallRecordOf(bonus);
  }

  /** Idempotent by roundId: a resent start of the same round appends nothing and answers the same spin. */
  async startSpin(command: StartFreeSpinData, origin: CommandOrigin): Promise<StartedFreeSpin | Refusal> {
    const { operatorId, playerId, issueId, gameId, roundId, currency } = command;
    const data = currency === undefined ? { issueId, gameId, roundId } : { issueId, gameId, roundId, currency };
    const now = this.now();
    const decided = await playerBonusStreams.handle(
      this.deps.store,
      { operatorId, playerId },
      { type: 'StartFreeSpin', data, metadata: { now } },
      contextOf(origin, now),
      this.extras(),
    );
    if (isRefusal(decided)) return decided;
    const bonus = decided.state.bonuses.get(issueId);
    const round = bonus?.rounds.get(roundId);
    if (!bonus || !round || bonus.baseBetAmountMinor === null)
      throw new Error(`free spin ${roundId} of bonus call ${issueId} is missing after it was decided`);
    return {
      issueId,
      roundId,
      gameId: round.gameId,
      spinNumber: round.spinNumber,
      currency: bonus.currency,
      baseBetAmountMinor: bonus.baseBetAmountMinor,
      winCapLeftMinor: round.winCapLeftMinor,
      replayed: decided.events.length === 0,
    };
  }

  /** Idempotent by roundId: a resent settle keeps the first win and its transactionId (the new id drawn is unused). */
  async settleSpin(command: SettleFreeSpinData, origin: CommandOrigin): Promise<SettledFreeSpin | Refusal> {
    const { operatorId, playerId, issueId, roundId, winMinor } = command;
    const transactionId = this.deps.ids.next();
    const now = this.now();
    const decided = await playerBonusStreams.handle(
      this.deps.store,
      { operatorId, playerId },
      { type: 'SettleFreeSpin', data: { issueId, roundId, rawWinMinor: winMinor, transactionId }, metadata: { now } },
      contextOf(origin, now),
      this.extras(),
    );
    if (isRefusal(decided)) return decided;
    const bonus = decided.state.bonuses.get(issueId);
    const round = bonus?.rounds.get(roundId);
    if (!bonus || !round?.settled)
      throw new Error(`free spin ${roundId} of bonus call ${issueId} is not settled after it was decided`);
    const { settled } = round;
    return {
      issueId,
      roundId,
      spinNumber: round.spinNumber,
      winMinor: settled.winMinor,
      totalWinMinor: settled.totalWinMinor,
      spinsLeft: settled.spinsLeft,
      transactionId: settled.transactionId,
      completed: completedBySpin(bonus, settled),
      replayed: decided.events.length === 0,
    };
  }
}
