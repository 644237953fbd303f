/**
 * D18 in the player API (D23): a session's token sees the rounds of its own player of its own
 * operator only — player ids belong to their operator, so both must match. Another's round is
 * answered as no round at all, so a token cannot probe which round ids exist.
 */
interface Party {
  readonly operatorId: string;
  readonly playerId: string;
}

export function roundVisibleTo(round: Party, session: Party): boolean {
  return round.operatorId === session.operatorId && round.playerId === session.playerId;
}
