/**
 * Finishes a round its spin left open: the dispatcher did not answer in time, the ledger did not,
 * or the process stopped half-way. A paid round asks the dispatcher again with the same request
 * (same transactionId: it answers from its record, never charging twice) and settles or cancels
 * on the answer; a free round asks the ledger for its spin again (idempotent by roundId) and
 * settles it with the outcome already in its stream. Until an answer comes the round stays open
 * and the next sweep tries again.
 */
import { isRefusal, isRefusedError } from '@reelstream/contracts';
import { stakeRequestOf } from '@reelstream/game-domain';
import { finishFreeRound } from './free-rounds.js';
import { completePaidRound, modelOf } from './paid-rounds.js';
import type { RoundDeps } from './round-deps.js';
import type { RoundStartedData } from './round-streams.js';

export type Resolution = 'settled' | 'canceled' | 'already_ended' | 'pending';

export async function resolveRound(deps: RoundDeps, started: RoundStartedData): Promise<Resolution> {
  const correlationId = `resolve-round-${started.roundId}`;
  return deps.inFlight.hold(started.roundId, async () => {
    const history = await deps.rounds.load(started.roundId);
    if (history?.end) return 'already_ended';
    try {
      if (started.kind === 'paid') {
        const answer = await deps.wallet.stake(stakeRequestOf(started));
        const result = await completePaidRound(deps, started, answer, correlationId, true);
        return result.status;
      }
      return await resolveFreeRound(deps, started, correlationId);
    } catch (error) {
      if (deps.wallet.isUnanswered(error) || deps.bonus.isUnanswered(error)) return 'pending';
      // A free round the ledger never started was canceled inside finishFreeRound; the refusal itself is the player’s business.
      if (isRefusedError(error)) return (await deps.rounds.load(started.roundId))?.end ? 'canceled' : 'pending';
      throw error;
    }
  });
}

/** A free round: the ledger names its spin, then it is played and settled (its refusal is thrown to the caller). */
async function resolveFreeRound(
  deps: RoundDeps,
  started: RoundStartedData,
  correlationId: string,
): Promise<Resolution> {
  const start = await deps.bonus.startFreeSpin(
    {
      operatorId: started.operatorId,
      playerId: started.playerId,
      issueId: started.bonusId,
      gameId: started.gameId,
      roundId: started.roundId,
      currency: started.currency,
    },
    correlationId,
  );
  if (isRefusal(start)) {
    deps.logger.error('the ledger refuses to name the free spin of an open round; it stays open', {
      roundId: started.roundId,
      code: start.code,
      message: start.message,
    });
    return 'pending';
  }
  const owner = {
    token: started.sessionToken,
    operatorId: started.operatorId,
    playerId: started.playerId,
    providerId: started.providerId,
    gameId: started.gameId,
    currency: started.currency,
  };
  const ticket = {
    issueId: started.bonusId,
    roundId: started.roundId,
    baseBetAmountMinor: start.baseBetAmountMinor,
    winCapLeftMinor: start.winCapLeftMinor,
  };
  await finishFreeRound(
    deps,
    owner,
    { model: modelOf(deps, started), profile: started.rtpProfile },
    ticket,
    correlationId,
  );
  return 'settled';
}
