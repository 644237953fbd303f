/**
 * Steered paid spins of a Regular Bonus Call on the player's `playerBonus` stream
 * (docs/adr/0012-regular-bonus-call-outcomes.md), decided in the game-server's process with the
 * ledger's decider as free spins are (ADR 0006). The game chooses the spin's outcome from what is
 * left of the target as the stream says it; SettleRegularSpin is appended at the revision that
 * choice was made on. When another spin of the player got there first the append conflicts, and the
 * choice is made again on the new state: no two spins can spend the same part of the target.
 * Idempotent by roundId: a round already decided answers its decision (and its outcome) again.
 */
import { winCapLeftMinor, type BonusCall, type SteeredRound } from '@reelstream/bonus-domain';
import {
  isRefusal,
  refusal,
  type BonusCallStatusName,
  type Refusal,
  type SteeredChoice,
  type SteeredSpinRequest,
  type SteeringView,
} from '@reelstream/contracts';
import { retryOnConflict } from '@reelstream/platform-eventsourcing';
import type { Clock, EventStore } from '@reelstream/platform-ports';
import { contextOf, type CommandOrigin } from './command-origin.js';
import { playerBonusStreams } from './streams.js';

export interface SteeredSpinDecision extends SteeredRound {
  readonly issueId: number;
  /** The bonus call's target, and its status once this decision is on the stream (or now, for one decided before). */
  readonly callAmountMinor: number;
  readonly status: BonusCallStatusName;
  /** This decision completed the bonus call. */
  readonly completed: boolean;
  /** Decided before (a retry, or the resolver finishing the round): the stored decision. */
  readonly replayed: boolean;
}

export class RegularSpins {
  constructor(private readonly deps: { store: EventStore; clock: Clock }) {}

  async settle(
    request: SteeredSpinRequest,
    choose: (view: SteeringView) => SteeredChoice,
    origin: CommandOrigin,
  ): Promise<SteeredSpinDecision | Refusal> {
    const { store, clock } = this.deps;
    const { issueId, roundId, gameId, betMinor, currency } = request;
    return retryOnConflict(playerBonusStreams.streamId(request), async () => {
      const loaded = await playerBonusStreams.load(store, request);
      const bonus = loaded.state.bonuses.get(issueId);
      if (!bonus) return refusal('BONUS_NOT_FOUND', `no bonus call ${issueId} for this player`);
      const known = bonus.steeredRounds.get(roundId);
      if (known) return decisionOf(bonus, known, true);
      const choice = choose({ targetLeftMinor: winCapLeftMinor(bonus), spinNumber: bonus.spinsUsed + 1 });
      const now = clock.now().toISOString();
      const decided = await playerBonusStreams.handle(
        store,
        request,
        {
          type: 'SettleRegularSpin',
          data: { issueId, roundId, gameId, betMinor, currency, ...choice },
          metadata: { now },
        },
        contextOf(origin, now),
        // A conflict is not decided again with the same choice: the whole attempt (read, choose) is retried.
        { loaded, retry: { maxAttempts: 1 } },
      );
      if (isRefusal(decided)) return decided;
      const after = decided.state.bonuses.get(issueId);
      const round = after?.steeredRounds.get(roundId);
      if (!after || !round)
        throw new Error(`steered spin ${roundId} of bonus call ${issueId} is missing after it was decided`);
      return decisionOf(after, round, decided.events.length === 0);
    });
  }
}

function decisionOf(bonus: BonusCall, round: SteeredRound, replayed: boolean): SteeredSpinDecision {
  // The round that crossed the target on a completed bonus call; spins settled after it (bets in flight) did not.
  const completed =
    bonus.status === 'completed' &&
    round.totalWinMinor >= bonus.callAmountMinor &&
    round.totalWinMinor - round.winMinor < bonus.callAmountMinor;
  return {
    ...round,
    issueId: bonus.issueId,
    callAmountMinor: bonus.callAmountMinor,
    status: bonus.status,
    completed,
    replayed,
  };
}
