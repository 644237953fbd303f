/** `GET /api/sessions/{token}/rounds/{roundId}`: a round of the session's player, replayed from its record. */
import { RefusedError } from '@reelstream/contracts';
import type { PlayerRound } from '@reelstream/contracts';
import { outcomeView, type RoundStreams, type SessionRepository } from '@reelstream/game-application';
import { replayStored, roundVisibleTo } from '@reelstream/game-domain';
import { formatAmount } from '@reelstream/money';

export async function roundView(
  rounds: RoundStreams,
  sessions: SessionRepository,
  token: string,
  roundId: number,
): Promise<PlayerRound> {
  const session = await sessions.find(token);
  if (!session) throw new RefusedError('SESSION_NOT_FOUND');
  const history = await rounds.load(roundId);
  if (!history || !roundVisibleTo(history.started, session)) throw new RefusedError('ROUND_NOT_FOUND');
  const { started, end } = history;
  const money = (minor: number) => formatAmount(minor, started.currency);
  const settled = end?.type === 'RoundSettled' ? end.data : undefined;
  return {
    roundId,
    kind: started.kind,
    status: end === undefined ? 'open' : end.type === 'RoundSettled' ? 'settled' : 'canceled',
    currency: started.currency,
    bet: money(started.betMinor),
    win: settled ? money(settled.winMinor) : null,
    outcome: settled ? outcomeView(replayStored(settled.outcome), started.currency) : null,
    reason: end?.type === 'RoundCanceled' ? playerReasonOf(end.data.reason) : null,
    startedAt: started.startedAt,
  };
}

/**
 * The recorded reason without the operator's detail: `bet_rejected:ERR_UNKNOWN (HTTP 502: {…})`
 * shows as `bet_rejected:ERR_UNKNOWN`. What the operator said stays in the log and the event.
 */
function playerReasonOf(recorded: string): string {
  return /^[a-z_]+(:[A-Za-z0-9_]+)?/.exec(recorded)?.[0] ?? 'canceled';
}
