/**
 * SettleRegularSpin (spec §1 bonusType 2, D3; docs/adr/0012-regular-bonus-call-outcomes.md): a paid
 * spin steered by the player's Regular Bonus Call delivers part of its target. What it delivers
 * never passes what is left; a top-up is paid only by the spin that delivers the rest; the spin that
 * delivers the rest completes the bonus call (reason `target_reached`). A spin whose bet was taken
 * while the bonus call was active is recorded even if the call ended since (the rule for a
 * spin in flight), without completing it. Settling the same round again changes nothing.
 */
import {
  BonusTypes,
  refusal,
  type BonusCallCompleted,
  type PlayerBonusEvent,
  type Refusal,
  type RegularBonusSpinSettled,
} from '@reelstream/contracts';
import { addMinor } from '@reelstream/money';
import type { SettleRegularSpin } from './commands.js';
import { winCapLeftMinor, type PlayerBonusAccount } from './state.js';

export function decideSettleRegularSpin(
  command: SettleRegularSpin,
  account: PlayerBonusAccount,
): PlayerBonusEvent[] | Refusal {
  const { issueId, roundId, gameId, betMinor, reelWinMinor, topUpMinor, currency } = command.data;
  const bonus = account.bonuses.get(issueId);
  if (!bonus) return refusal('BONUS_NOT_FOUND', `no bonus call ${issueId} for this player`);
  if (bonus.steeredRounds.has(roundId)) return [];
  if (bonus.bonusType !== BonusTypes.regular)
    return refusal('BONUS_NOT_ACTIVE', `bonus call ${issueId} is a Free Spin Bonus: it steers no paid spin`);
  for (const [name, value, least] of [
    ['betMinor', betMinor, 1],
    ['reelWinMinor', reelWinMinor, 0],
    ['topUpMinor', topUpMinor, 0],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < least)
      return refusal('VALIDATION_FAILED', `${name} must be a whole amount of minor units of at least ${least}`);
  }
  if (!bonus.gameIds.includes(gameId))
    return refusal('GAME_NOT_IN_BONUS', `game ${gameId} is not one of the games of bonus call ${issueId}`);
  if (currency !== undefined && currency !== bonus.currency)
    return refusal('BONUS_CURRENCY_MISMATCH', `bonus call ${issueId} is in ${bonus.currency}, not ${currency}`);

  const left = winCapLeftMinor(bonus);
  const winMinor = addMinor(reelWinMinor, topUpMinor);
  if (winMinor > left)
    return refusal(
      'VALIDATION_FAILED',
      `spin ${roundId} would deliver ${winMinor}; only ${left} is left of the target`,
    );
  if (topUpMinor > 0 && winMinor !== left)
    return refusal('VALIDATION_FAILED', `a top-up is paid only by the spin that delivers the rest of the target`);

  const totalWinMinor = addMinor(bonus.totalWinMinor, winMinor);
  const settled: RegularBonusSpinSettled = {
    type: 'RegularBonusSpinSettled',
    data: {
      issueId,
      roundId,
      gameId,
      spinNumber: bonus.spinsUsed + 1,
      betMinor,
      reelWinMinor,
      topUpMinor,
      winMinor,
      totalWinMinor,
      outcome: command.data.outcome as RegularBonusSpinSettled['data']['outcome'],
      settledAt: command.metadata.now,
    },
  };
  if (bonus.status !== 'active' || totalWinMinor < bonus.callAmountMinor) return [settled];
  const completed: BonusCallCompleted = {
    type: 'BonusCallCompleted',
    data: { issueId, reason: 'target_reached', totalWinMinor, completedAt: command.metadata.now },
  };
  return [settled, completed];
}
