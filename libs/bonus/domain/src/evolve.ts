/**
 * evolve(state, event): how each event of a `playerBonus` stream changes the player's bonus
 * account. Total and pure: a replay of the same events always gives the same account.
 */
import type { PlayerBonusEvent } from '@reelstream/contracts';
import type { BonusCall, FreeSpinRound, PlayerBonusAccount, SteeredRound } from './state.js';
import { termsOf } from './terms.js';

// Long because: one case per bonus event in one exhaustive switch, so the compiler checks that every event type is
// folded.
export function evolve(account: PlayerBonusAccount, event: PlayerBonusEvent): PlayerBonusAccount {
  switch (event.type) {
    case 'BonusCallRegistered': {
      const { data } = event;
      const bonus: BonusCall = {
        ...termsOf(data),
        registeredAt: data.registeredAt,
        status: 'active',
        spinsUsed: 0,
        spinsSettled: 0,
        totalWinMinor: 0,
        openRoundId: null,
        rounds: new Map(),
        steeredRounds: new Map(),
        completedAt: null,
        completionReason: null,
        canceledAt: null,
        expiredAt: null,
      };
      return { bonuses: withBonus(account.bonuses, bonus), activeIssueId: bonus.issueId };
    }
    case 'FreeSpinStarted': {
      const { data } = event;
      return update(account, data.issueId, (bonus) => ({
        ...bonus,
        spinsUsed: data.spinNumber,
        openRoundId: data.roundId,
        rounds: withRound(bonus.rounds, {
          roundId: data.roundId,
          gameId: data.gameId,
          spinNumber: data.spinNumber,
          winCapLeftMinor: data.winCapLeftMinor,
          settled: null,
        }),
      }));
    }
    case 'FreeSpinSettled': {
      const { data } = event;
      return update(account, data.issueId, (bonus) => {
        const round = bonus.rounds.get(data.roundId) ?? {
          roundId: data.roundId,
          gameId: data.gameId,
          spinNumber: data.spinNumber,
          winCapLeftMinor: 0,
          settled: null,
        };
        const settled = {
          rawWinMinor: data.rawWinMinor,
          winMinor: data.winMinor,
          totalWinMinor: data.totalWinMinor,
          spinsLeft: data.spinsLeft,
          transactionId: data.transactionId,
        };
        return {
          ...bonus,
          spinsSettled: bonus.spinsSettled + 1,
          totalWinMinor: data.totalWinMinor,
          openRoundId: bonus.openRoundId === data.roundId ? null : bonus.openRoundId,
          rounds: withRound(bonus.rounds, { ...round, settled }),
        };
      });
    }
    case 'RegularBonusSpinSettled': {
      const { data } = event;
      return update(account, data.issueId, (bonus) => {
        const steered: SteeredRound = {
          roundId: data.roundId,
          gameId: data.gameId,
          spinNumber: data.spinNumber,
          betMinor: data.betMinor,
          reelWinMinor: data.reelWinMinor,
          topUpMinor: data.topUpMinor,
          winMinor: data.winMinor,
          totalWinMinor: data.totalWinMinor,
          outcome: data.outcome,
        };
        const steeredRounds = new Map(bonus.steeredRounds);
        steeredRounds.set(data.roundId, steered);
        return {
          ...bonus,
          spinsUsed: Math.max(bonus.spinsUsed, data.spinNumber),
          spinsSettled: bonus.spinsSettled + 1,
          totalWinMinor: data.totalWinMinor,
          steeredRounds,
        };
      });
    }
    case 'BonusCallCompleted': {
      const { data } = event;
      return close(
        update(account, data.issueId, (bonus) => ({
          ...bonus,
          status: 'completed',
          completedAt: data.completedAt,
          completionReason: data.reason,
        })),
        data.issueId,
      );
    }
    // The spin in flight stays open (openRoundId kept): it still settles after the end.
    case 'BonusCallExpired': {
      const { data } = event;
      return close(
        update(account, data.issueId, (bonus) => ({ ...bonus, status: 'expired', expiredAt: data.expiredAt })),
        data.issueId,
      );
    }
    case 'BonusCallCanceled': {
      const { data } = event;
      return close(
        update(account, data.issueId, (bonus) => ({ ...bonus, status: 'canceled', canceledAt: data.canceledAt })),
        data.issueId,
      );
    }
    default: {
      const unexpected: never = event;
      throw new Error(`no evolve rule for ${(unexpected as { type: string }).type}`);
    }
  }
}

function update(
  account: PlayerBonusAccount,
  issueId: number,
  change: (bonus: BonusCall) => BonusCall,
): PlayerBonusAccount {
  const bonus = account.bonuses.get(issueId);
  // An event always follows the registration it names in the same stream; anything else is a corrupt stream.
  if (!bonus) throw new Error(`event for bonus call ${issueId}, which this stream never registered`);
  return { ...account, bonuses: withBonus(account.bonuses, change(bonus)) };
}

function close(account: PlayerBonusAccount, issueId: number): PlayerBonusAccount {
  return account.activeIssueId === issueId ? { ...account, activeIssueId: null } : account;
}

function withBonus(bonuses: ReadonlyMap<number, BonusCall>, bonus: BonusCall): ReadonlyMap<number, BonusCall> {
  const next = new Map(bonuses);
  next.set(bonus.issueId, bonus);
  return next;
}

function withRound(
  rounds: ReadonlyMap<number, FreeSpinRound>,
  round: FreeSpinRound,
): ReadonlyMap<number, FreeSpinRound> {
  const next = new Map(rounds);
  next.set(round.roundId, round);
  return next;
}
