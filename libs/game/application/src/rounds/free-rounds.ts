/**
 * A free spin of a Free Spin Bonus (docs/architecture.md flow 4, D10): StartFreeSpin on the player's bonus
 * stream (decided in this process with the ledger's rules, ADR 0006; "the ledger" below is that port) →
 * the outcome at the bonus's base bet → RoundStarted (kind free) with that outcome → SettleFreeSpin
 * with the raw win → RoundSettled with the win the ledger credited (capped by the win cap left).
 * The ledger, not the game-server, sends the spin's `win` (from its durable FreeSpinSettled).
 *
 * Each step is idempotent by roundId and the outcome is in the round's stream before the ledger
 * hears of it, so a spin interrupted anywhere is finished later with the same result: by the
 * next spin (the ledger reports the open round) or by the resolver.
 */
import { isRefusal, type SettledFreeSpin, RefusedError } from '@reelstream/contracts';
import {
  capWin,
  forfeitedFreeRound,
  playRound,
  replayStored,
  storedRecord,
  type GameModel,
  type GameSession,
  type Profile,
  type RoundEnd,
  type RoundOutcome,
} from '@reelstream/game-domain';
import type { ShownBalance } from '../sessions/balance-book.js';
import { refreshBalance, type RoundDeps } from './round-deps.js';
import type { RoundStartedData } from './round-streams.js';

export interface FreeSpinOutcome {
  readonly started: RoundStartedData;
  readonly outcome: RoundOutcome;
  readonly settle: SettledFreeSpin;
  /** The win cap left after the spin. */
  readonly winCapLeftMinor: number;
  readonly capped: boolean;
  readonly balance: ShownBalance;
}

/** What a free round needs to be played: the bonus, the round and its stake. */
export interface FreeRoundTicket {
  readonly issueId: number;
  readonly roundId: number;
  readonly baseBetAmountMinor: number;
  /** The win cap left when the spin started (the ledger's answer to StartFreeSpin). */
  readonly winCapLeftMinor: number;
  /**
   * The round id was drawn by this spin and the ledger's start of it is new: its stream is not read
   * before the round is played (a start written meanwhile by another hand still wins: the append
   * expects no stream, and the conflict answers the stream's start).
   */
  readonly drawnHere?: boolean;
}

/** Starts a free spin (or takes over the one the ledger still has open) and plays it to the end. */
export async function playFreeSpin(
  deps: RoundDeps,
  session: GameSession,
  game: { model: GameModel; profile: Profile },
  bonus: { issueId: number; openRoundId: number | null },
  correlationId: string,
): Promise<FreeSpinOutcome> {
  const roundId = bonus.openRoundId ?? deps.ids.next();
  // The session's currency goes along: the ledger refuses a bonus call of another one (D6 amended).
  const start = await deps.bonus.startFreeSpin(
    {
      operatorId: session.operatorId,
      playerId: session.playerId,
      issueId: bonus.issueId,
      gameId: session.gameId,
      roundId,
      currency: session.currency,
    },
    correlationId,
  );
  if (isRefusal(start)) throw new RefusedError(start.code, start.message);
  const ticket: FreeRoundTicket = {
    issueId: bonus.issueId,
    roundId,
    baseBetAmountMinor: start.baseBetAmountMinor,
    winCapLeftMinor: start.winCapLeftMinor,
    drawnHere: bonus.openRoundId === null && !start.replayed,
  };
  return deps.inFlight.hold(roundId, () => finishFreeRound(deps, session, game, ticket, correlationId));
}

/** Whose free round it is: the fields of the player's session that a free round reads. */
type FreeRoundOwner = Pick<GameSession, 'token' | 'operatorId' | 'playerId' | 'providerId' | 'gameId' | 'currency'>;

/** Plays (or replays from the stream) the round of a started free spin and settles it with the ledger. */
export async function finishFreeRound(
  deps: RoundDeps,
  owner: FreeRoundOwner,
  game: { model: GameModel; profile: Profile },
  ticket: FreeRoundTicket,
  correlationId: string,
): Promise<FreeSpinOutcome> {
  const started = await startedRound(deps, owner, game, ticket, correlationId);
  const outcome = replayStored(started.outcome);
  const result = await deps.bonus.settleFreeSpin(
    {
      operatorId: started.operatorId,
      playerId: started.playerId,
      issueId: ticket.issueId,
      roundId: ticket.roundId,
      winMinor: outcome.winMinor,
    },
    correlationId,
  );
  if (isRefusal(result)) {
    const forfeited = forfeitedFreeRound(ticket.roundId, result.code, deps.clock.now().toISOString());
    if (forfeited) await deps.rounds.finish(started, forfeited, correlationId);
    throw new RefusedError(result.code, result.message);
  }
  const expected = capWin(outcome.winMinor, ticket.winCapLeftMinor);
  if (expected.winMinor !== result.winMinor) {
    deps.logger.error('the ledger credited another win than the game capped', {
      roundId: ticket.roundId,
      issueId: ticket.issueId,
      game: expected.winMinor,
      ledger: result.winMinor,
    });
  }
  const end: RoundEnd = {
    type: 'RoundSettled',
    data: {
      roundId: ticket.roundId,
      outcome: storedRecord(outcome),
      winMinor: result.winMinor,
      settledAt: deps.clock.now().toISOString(),
    },
  };
  await deps.rounds.finish(started, end, correlationId);
  // The ledger's relay sends the win; until the wallet's answer to it is recorded it is shown as pending.
  const { operatorId, playerId, currency } = started;
  await refreshBalance(deps, started);
  deps.balances.winSent(operatorId, playerId, currency, result.transactionId, result.winMinor);
  return {
    started,
    outcome,
    settle: result,
    winCapLeftMinor: Math.max(0, ticket.winCapLeftMinor - result.winMinor),
    capped: result.winMinor < outcome.winMinor,
    balance: deps.balances.peek(operatorId, playerId, currency),
  };
}

async function startedRound(
  deps: RoundDeps,
  owner: FreeRoundOwner,
  game: { model: GameModel; profile: Profile },
  ticket: FreeRoundTicket,
  correlationId: string,
): Promise<RoundStartedData> {
  const existing = ticket.drawnHere === true ? undefined : await deps.rounds.load(ticket.roundId);
  if (existing) return existing.started;
  const outcome = playRound({
    model: game.model,
    profile: game.profile,
    betMinor: ticket.baseBetAmountMinor,
    rng: deps.rng,
  });
  const started: RoundStartedData = {
    roundId: ticket.roundId,
    sessionToken: owner.token,
    operatorId: owner.operatorId,
    playerId: owner.playerId,
    providerId: owner.providerId,
    gameId: owner.gameId,
    kind: 'free',
    currency: owner.currency,
    betMinor: ticket.baseBetAmountMinor,
    bonusId: ticket.issueId,
    rtpProfile: game.profile,
    startedAt: deps.clock.now().toISOString(),
    outcome: storedRecord(outcome),
  };
  // Another hand may have started the same round first: the stream's start is the one played on.
  return deps.rounds.start(started, correlationId);
}
