/** The bonus-ledger's record of the player's active bonus, as the game page's badge shows it. */
import {
  BonusTypes,
  type BonusCallRecord,
  type PlayerBonusView,
  type PlayerRegularBonusView,
} from '@reelstream/contracts';
import { playableIn, type GameSession } from '@reelstream/game-domain';
import { formatAmount } from '@reelstream/money';

/** The badge's view, in the bonus call's own currency, saying whether this session can play it. */
export function playerBonusView(bonus: BonusCallRecord, session: Pick<GameSession, 'currency'>): PlayerBonusView {
  const money = (minor: number) => formatAmount(minor, bonus.currency);
  return {
    issueId: bonus.issueId,
    status: bonus.status,
    currency: bonus.currency,
    playable: playableIn(bonus, session),
    spinAmount: bonus.spinAmount ?? 0,
    spinsUsed: bonus.spinsUsed,
    spinsLeft: bonus.spinsLeft ?? 0,
    baseBet: money(bonus.baseBetAmountMinor ?? 0),
    winSoFar: money(bonus.totalWinMinor),
    winCap: money(bonus.callAmountMinor),
    winCapLeft: money(bonus.winCapLeftMinor),
    expireAt: bonus.expireAt,
  };
}

/**
 * A Regular Bonus Call's progress (ADR 0012), in its own currency: playable when this session's paid
 * spins are steered by it (its currency, a slot game: `steerable`).
 */
export function playerRegularBonusView(
  bonus: BonusCallRecord,
  session: Pick<GameSession, 'currency'>,
  steerable: boolean,
): PlayerRegularBonusView {
  const money = (minor: number) => formatAmount(minor, bonus.currency);
  return {
    bonusType: BonusTypes.regular,
    issueId: bonus.issueId,
    status: bonus.status,
    currency: bonus.currency,
    playable: steerable && playableIn(bonus, session),
    callAmount: money(bonus.callAmountMinor),
    delivered: money(bonus.totalWinMinor),
    left: money(bonus.winCapLeftMinor),
    spinsUsed: bonus.spinsUsed,
    expireAt: bonus.expireAt,
  };
}
