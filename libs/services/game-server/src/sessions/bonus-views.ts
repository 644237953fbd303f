/** The bonus-ledger's record of the player's active bonus, as the game page sees it. */
import { BonusTypes, type BonusCallRecord, type PlayerBonusView } from '@reelstream/contracts';
import { formatAmount } from '@reelstream/money';
import { ApiError, ledgerTimeoutAsApiError } from '@reelstream/http';
import type { BonusLedgerClient } from '@reelstream/bonus-client';
import type { GameSession } from './session-repository.js';

/** The player's active bonus call, whatever game it is for (D21 needs it for every bet). */
export async function activeBonusOf(
  ledger: BonusLedgerClient,
  session: GameSession,
  correlationId: string,
): Promise<BonusCallRecord | null> {
  let reply;
  try {
    reply = await ledger.call(
      'GetActiveBonus',
      { operatorId: session.operatorId, playerId: session.playerId },
      correlationId,
    );
  } catch (error) {
    throw ledgerTimeoutAsApiError(error, 'try again in a moment.', 2);
  }
  if (!reply.ok) throw new ApiError(reply.error.code, reply.error.message);
  const bonus = reply.result.bonus;
  // D18 holds inside the ledger too; checked again because a free spin is paid by this answer.
  if (bonus && (bonus.operatorId !== session.operatorId || bonus.playerId !== session.playerId))
    throw new Error(`the ledger answered bonus ${bonus.issueId} of another player`);
  return bonus;
}

/** The active bonus when it gives free spins in this session's game (a spin still open counts). */
export function freeSpinBonusFor(bonus: BonusCallRecord | null, gameId: number): BonusCallRecord | undefined {
  if (!bonus || bonus.status !== 'active' || bonus.bonusType !== BonusTypes.freeSpin || !bonus.gameIds.includes(gameId))
    return undefined;
  if (bonus.spinAmount === null || bonus.baseBetAmountMinor === null) return undefined;
  return (bonus.spinsLeft ?? 0) > 0 || bonus.openRoundId !== null ? bonus : undefined;
}

/** D6 amended: a bonus call's free spins are played only in a session of its currency; nothing is converted. */
export function playableIn(bonus: BonusCallRecord, session: Pick<GameSession, 'currency'>): boolean {
  return bonus.currency === session.currency;
}

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
