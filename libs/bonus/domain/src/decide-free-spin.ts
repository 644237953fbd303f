/**
 * StartFreeSpin and SettleFreeSpin (spec §1, docs/architecture.md flow 4, D10, D20): a free spin only on an
 * active Free Spin Bonus, in one of its games, while spins remain, one at a time; its win capped
 * by the win cap left; the bonus completed when the spins or the cap run out, after which no
 * game can start another spin. A retried Start or Settle of the same round changes nothing.
 */
import {
  BonusTypes,
  refusal,
  type BonusCallCompleted,
  type FreeSpinSettled,
  type FreeSpinStarted,
  type PlayerBonusEvent,
  type Refusal,
} from '@reelstream/contracts';
import { addMinor } from '@reelstream/money';
import type { SettleFreeSpin, StartFreeSpin } from './commands.js';
import { isAtOrAfter, spinsLeft, winCapLeftMinor, type BonusCall, type PlayerBonusAccount } from './state.js';

function notActive(bonus: BonusCall): Refusal {
  if (bonus.status === 'expired') return refusal('BONUS_EXPIRED', `bonus call ${bonus.issueId} has expired`);
  return refusal('BONUS_NOT_ACTIVE', `bonus call ${bonus.issueId} is ${bonus.status}`);
}

export function decideStartFreeSpin(command: StartFreeSpin, account: PlayerBonusAccount): PlayerBonusEvent[] | Refusal {
  const { issueId, gameId, roundId } = command.data;
  const bonus = account.bonuses.get(issueId);
  if (!bonus) return refusal('BONUS_NOT_FOUND', `no bonus call ${issueId} for this player`);

  const round = bonus.rounds.get(roundId);
  if (round) {
    if (round.gameId !== gameId)
      return refusal('FREE_SPIN_IN_PROGRESS', `round ${roundId} was started in game ${round.gameId}, not ${gameId}`);
    return [];
  }
  if (bonus.status !== 'active') return notActive(bonus);
  // A Free Spin Bonus always has spinAmount and baseBetAmountMinor (the BonusCallRegistered schema): the null
  // check only narrows baseBetAmountMinor's type.
  if (bonus.bonusType !== BonusTypes.freeSpin || bonus.baseBetAmountMinor === null) {
    return refusal('BONUS_NOT_ACTIVE', `bonus call ${issueId} is a Regular Bonus Call: it has no free spins`);
  }
  if (isAtOrAfter(command.metadata.now, bonus.expireAt))
    return refusal('BONUS_EXPIRED', `bonus call ${issueId} expired at ${bonus.expireAt}`);
  const { currency } = command.data;
  if (currency !== undefined && currency !== bonus.currency) {
    return refusal(
      'BONUS_CURRENCY_MISMATCH',
      `bonus call ${issueId} is in ${bonus.currency}; a game session in ${currency} cannot play its free spins`,
    );
  }
  if (!bonus.gameIds.includes(gameId))
    return refusal('GAME_NOT_IN_BONUS', `game ${gameId} is not one of the games of bonus call ${issueId}`);
  if (bonus.openRoundId !== null)
    return refusal(
      'FREE_SPIN_IN_PROGRESS',
      `free spin round ${bonus.openRoundId} of bonus call ${issueId} is not settled yet`,
    );
  const left = spinsLeft(bonus) ?? 0;
  // An active bonus with no spins left cannot exist (the last settle completes it); kept as a guard.
  if (left <= 0) return refusal('BONUS_NOT_ACTIVE', `bonus call ${issueId} has no free spins left`);

  const started: FreeSpinStarted = {
    type: 'FreeSpinStarted',
    data: {
      issueId,
      roundId,
      gameId,
      spinNumber: bonus.spinsUsed + 1,
      baseBetAmountMinor: bonus.baseBetAmountMinor,
      winCapLeftMinor: winCapLeftMinor(bonus),
      startedAt: command.metadata.now,
    },
  };
  return [started];
}

export function decideSettleFreeSpin(
  command: SettleFreeSpin,
  account: PlayerBonusAccount,
): PlayerBonusEvent[] | Refusal {
  const { issueId, roundId, rawWinMinor, transactionId } = command.data;
  const bonus = account.bonuses.get(issueId);
  if (!bonus) return refusal('BONUS_NOT_FOUND', `no bonus call ${issueId} for this player`);
  if (!Number.isSafeInteger(rawWinMinor) || rawWinMinor < 0)
    return refusal('VALIDATION_FAILED', 'the raw win must be a non-negative whole amount of minor units');

  const round = bonus.rounds.get(roundId);
  if (round?.settled) return [];
  if (!round || bonus.openRoundId !== roundId) {
    if (bonus.status !== 'active') return notActive(bonus);
    return refusal(
      'FREE_SPIN_NOT_STARTED',
      `no free spin of bonus call ${issueId} is in progress for round ${roundId}`,
    );
  }
  // Spec §3 (wins of spins already used stay credited): a spin started while the
  // bonus call was active settles with its win, capped, even if it expired or was canceled since.
  const ended = bonus.status !== 'active';

  const winMinor = Math.min(rawWinMinor, winCapLeftMinor(bonus));
  const totalWinMinor = addMinor(bonus.totalWinMinor, winMinor);
  // The spins not started were forfeited when the bonus call ended: none is left to play.
  const left = ended ? 0 : (spinsLeft(bonus) ?? 0);
  const settled: FreeSpinSettled = {
    type: 'FreeSpinSettled',
    data: {
      issueId,
      roundId,
      gameId: round.gameId,
      spinNumber: round.spinNumber,
      rawWinMinor,
      winMinor,
      totalWinMinor,
      spinsLeft: left,
      settledAt: command.metadata.now,
      transactionId,
    },
  };
  // An ended bonus call stays as it ended: no completion after expiry or cancel.
  if (ended) return [settled];
  const reason = completionReasonOf(bonus.callAmountMinor, totalWinMinor, left);
  if (reason === undefined) return [settled];
  // D20: completion ends the bonus call for every one of its games.
  const completed: BonusCallCompleted = {
    type: 'BonusCallCompleted',
    data: {
      issueId,
      reason,
      totalWinMinor,
      completedAt: command.metadata.now,
    },
  };
  return [settled, completed];
}

/** R13 (spec §1, §3): a settled spin completes its bonus call when it reached the win cap or used the last spin. */
export function completionReasonOf(
  callAmountMinor: number,
  totalWinMinor: number,
  spinsLeftAfter: number,
): 'win_cap_reached' | 'spins_used' | undefined {
  if (totalWinMinor >= callAmountMinor) return 'win_cap_reached';
  return spinsLeftAfter > 0 ? undefined : 'spins_used';
}

/**
 * Whether this settled spin is the one that completed the bonus call, for the answer to the game:
 * not when an expiry or cancel ended it while the spin was in flight.
 */
export function completedBySpin(
  bonus: Pick<BonusCall, 'status' | 'callAmountMinor'>,
  settled: { readonly totalWinMinor: number; readonly spinsLeft: number },
): boolean {
  return (
    bonus.status === 'completed' &&
    completionReasonOf(bonus.callAmountMinor, settled.totalWinMinor, settled.spinsLeft) !== undefined
  );
}
