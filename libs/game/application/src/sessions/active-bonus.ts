/**
 * The player's active bonus as the bonus-ledger records it, read from the player's bonus stream
 * (ADR 0006), as a spin and the game page need it.
 */
import { RefusedError } from '@reelstream/contracts';
import type { BonusCallRecord } from '@reelstream/contracts';
import type { GameSession } from '@reelstream/game-domain';
import type { PlayerBonusPort } from '../ports.js';

/** The player's active bonus call, whatever game it is for (D21 needs it for every bet). */
export async function activeBonusOf(
  bonuses: PlayerBonusPort,
  session: Pick<GameSession, 'operatorId' | 'playerId'>,
): Promise<BonusCallRecord | null> {
  let bonus;
  try {
    bonus = await bonuses.active(session.operatorId, session.playerId);
  } catch (error) {
    if (bonuses.isUnanswered(error))
      throw new RefusedError(
        'SERVICE_UNAVAILABLE',
        'The bonus service did not answer in time; try again in a moment.',
        { retryAfterSeconds: 2 },
      );
    throw error;
  }
  // D18 holds inside the ledger too; checked again because a free spin is paid by this answer.
  if (bonus && (bonus.operatorId !== session.operatorId || bonus.playerId !== session.playerId))
    throw new Error(`the ledger answered bonus ${bonus.issueId} of another player`);
  return bonus;
}
