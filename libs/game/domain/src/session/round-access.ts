/**
 * D18 in the player API (D23): a session's token sees the rounds of its own player of its own
 * operator only — player ids belong to their operator, so both must match. Another's round is
 * answered as no round at all, so a token cannot probe which round ids exist. A spin that names
 * a player must name the session's.
 */
import { refusal, type Refusal } from '@reelstream/contracts';

interface Party {
  readonly operatorId: string;
  readonly playerId: string;
}

export function roundVisibleTo(round: Party, session: Party): boolean {
  return round.operatorId === session.operatorId && round.playerId === session.playerId;
}

/** The player API's spin body may name its player (D23); another player than the session's is refused. */
export function spinnerRefusal(session: Party, playerId: string | undefined): Refusal | undefined {
  if (playerId === undefined || playerId === session.playerId) return undefined;
  return refusal('FORBIDDEN', 'This game session belongs to another player.');
}
