/**
 * `POST /api/sessions/{token}/spin` (D23): which round a spin is, and its result for the page.
 * A free spin when the session's player has an active Free Spin Bonus for this game; otherwise a
 * paid spin at one of the game's bet levels, with isBonusBusy per D21, steered by the player's active
 * Regular Bonus Call when it is for this slot game (ADR 0012); a demo session plays with play money. One spin at a time per session.
 */
import {
  BonusTypes,
  type SpinRequest,
  type SpinResult,
  type WalletReply,
  RefusedError,
  isRefusal,
  type Refusal,
} from '@reelstream/contracts';
import {
  betOf,
  betRefusalOf,
  profileForSession,
  regularBonusFor,
  spinKindOf,
  spinnerRefusal,
  stakeRequestOf,
  type GameModel,
  type GameSession,
  type Profile,
} from '@reelstream/game-domain';
import { formatAmount } from '@reelstream/money';
import type { GameTable } from '../game-table.js';
import type { SteeredSpinDecision } from '../ports.js';
import { activeBonusOf } from '../sessions/active-bonus.js';
import type { ShownBalance } from '../sessions/balance-book.js';
import type { SessionRepository } from '../sessions/session-repository.js';
import type { SpinClaims } from '../sessions/spin-claims.js';
import { playDemoRound } from './demo-rounds.js';
import { playFreeSpin } from './free-rounds.js';
import { outcomeView } from './outcome-view.js';
import { beginPaidRound, completePaidRound, type PaidRoundResult } from './paid-rounds.js';
import type { RoundDeps } from './round-deps.js';
import type { RoundStartedData } from './round-streams.js';

export interface SpinServiceDeps {
  readonly round: RoundDeps;
  readonly sessions: SessionRepository;
  readonly table: GameTable;
  readonly locks: SpinClaims;
}

interface PlayedGame {
  readonly model: GameModel;
  readonly profile: Profile;
  readonly betLevelsMinor: readonly number[];
}

export class SpinService {
  constructor(private readonly deps: SpinServiceDeps) {}

  async spin(token: string, request: SpinRequest, correlationId: string): Promise<SpinResult> {
    const session = accepted(await this.deps.sessions.playable(token));
    const notTheirs = spinnerRefusal(session, request.playerId);
    if (notTheirs) throw RefusedError.from(notTheirs);
    const game = this.gameOf(session);
    return this.deps.locks.withLock({ operatorId: session.operatorId, token }, async () =>
      session.demo ? this.demoSpin(session, game, request) : this.realSpin(session, game, request, correlationId),
    );
  }

  private gameOf(session: GameSession): PlayedGame {
    const found = this.deps.table.find(session.gameId);
    if (!found) throw new RefusedError('GAME_NOT_FOUND', `Game ${session.gameId} is no longer offered.`);
    return {
      model: found.model,
      profile: profileForSession(session.isStreamer),
      betLevelsMinor: this.deps.table.betLevelsMinor(found.game, session.currency),
    };
  }

  private demoSpin(session: GameSession, game: PlayedGame, request: SpinRequest): SpinResult {
    if (request.issueId !== undefined) throw new RefusedError('BONUS_NOT_FOUND', 'A demo session has no bonus.');
    const betMinor = accepted(betOf(request.bet, game.betLevelsMinor, session.currency));
    const round = playDemoRound(this.deps.round, session, game, betMinor);
    const money = (minor: number) => formatAmount(minor, session.currency);
    return {
      roundId: round.roundId,
      kind: 'demo',
      currency: session.currency,
      bet: money(betMinor),
      win: money(round.outcome.winMinor),
      balance: money(round.balanceMinor),
      pendingWin: 0,
      outcome: outcomeView(round.outcome, session.currency),
      bonus: null,
    };
  }

  private async realSpin(
    session: GameSession,
    game: PlayedGame,
    request: SpinRequest,
    correlationId: string,
  ): Promise<SpinResult> {
    const active = await activeBonusOf(this.deps.round.bonus, session);
    const spin = accepted(spinKindOf(active, session, request.issueId));
    if (spin.kind === 'free') return this.freeSpin(session, game, spin.bonus, correlationId);
    const betMinor = accepted(betOf(request.bet, game.betLevelsMinor, session.currency));
    const steeredBy = game.model.kind === 'slot' ? regularBonusFor(active, session)?.issueId : undefined;
    return this.paidSpin(session, game, { betMinor, isBonusBusy: spin.isBonusBusy, steeredBy }, correlationId);
  }

  private async freeSpin(
    session: GameSession,
    game: PlayedGame,
    bonus: { issueId: number; openRoundId: number | null },
    correlationId: string,
  ): Promise<SpinResult> {
    let played;
    try {
      played = await playFreeSpin(this.deps.round, session, game, bonus, correlationId);
    } catch (error) {
      if (this.deps.round.bonus.isUnanswered(error)) {
        throw new RefusedError(
          'SERVICE_UNAVAILABLE',
          'The bonus service did not answer in time; your free spin is kept and finishes on your next spin.',
          { retryAfterSeconds: 2 },
        );
      }
      throw error;
    }
    const money = (minor: number) => formatAmount(minor, session.currency);
    const { settle } = played;
    return {
      roundId: played.started.roundId,
      kind: 'free',
      currency: session.currency,
      bet: money(played.started.betMinor),
      win: money(settle.winMinor),
      ...balanceView(played.balance, session.currency),
      outcome: outcomeView(played.outcome, session.currency),
      bonus: {
        issueId: settle.issueId,
        spinNumber: settle.spinNumber,
        spinsLeft: settle.spinsLeft,
        winSoFar: money(settle.totalWinMinor),
        winCapLeft: money(played.winCapLeftMinor),
        capped: played.capped,
        completed: settle.completed,
      },
    };
  }

  private async paidSpin(
    session: GameSession,
    game: PlayedGame,
    stake: { betMinor: number; isBonusBusy: boolean; steeredBy: number | undefined },
    correlationId: string,
  ): Promise<SpinResult> {
    const { round } = this.deps;
    const { betMinor, isBonusBusy, steeredBy } = stake;
    const started = await beginPaidRound(
      round,
      {
        session,
        model: game.model,
        profile: game.profile,
        betMinor,
        isBonusBusy,
        ...(steeredBy === undefined ? {} : { steeredBy }),
      },
      correlationId,
    );
    const result = await round.inFlight.hold(started.roundId, () => this.stakeAndSettle(started, correlationId));
    const money = (minor: number) => formatAmount(minor, session.currency);
    if (result.status === 'canceled') {
      // The operator's detail (an HTTP body, a socket error) is for the log; the player gets the status code and round.
      round.logger.warn('the operator wallet refused the bet; the round is canceled', {
        roundId: started.roundId,
        transactionId: started.transactionId,
        statusCode: result.answer?.statusCode,
        reason: result.reason,
      });
      throw RefusedError.from(betRefusalOf(result.answer?.statusCode, started.roundId));
    }
    return {
      roundId: started.roundId,
      kind: 'paid',
      currency: session.currency,
      bet: money(betMinor),
      win: money(result.winMinor),
      ...balanceView(result.balance, session.currency),
      outcome: outcomeView(result.outcome, session.currency),
      bonus: result.steered === undefined ? null : regularBonusSpinView(result.steered, session.currency),
    };
  }

  /** The bet to the operator's wallet, then the round settled or canceled on its answer. */
  private async stakeAndSettle(started: RoundStartedData, correlationId: string): Promise<PaidRoundResult> {
    const { round } = this.deps;
    let answer: WalletReply;
    try {
      answer = await round.wallet.stake(stakeRequestOf(started));
    } catch (error) {
      if (round.wallet.isUnanswered(error)) {
        round.logger.warn('bet not answered; the round is left to the resolver', {
          roundId: started.roundId,
          transactionId: started.transactionId,
          reason: error.message,
        });
        throw new RefusedError('WALLET_UNAVAILABLE', undefined, {
          details: [{ path: 'roundId', message: String(started.roundId) }],
          retryAfterSeconds: 5,
        });
      }
      throw error;
    }
    try {
      return await completePaidRound(round, started, answer, correlationId);
    } catch (error) {
      // A steered round whose bonus stream kept changing: the bet is taken, the resolver settles it.
      if (round.bonus.isUnanswered(error))
        throw new RefusedError(
          'SERVICE_UNAVAILABLE',
          'The bonus service did not answer in time; your spin is kept and finishes shortly.',
          { details: [{ path: 'roundId', message: String(started.roundId) }], retryAfterSeconds: 2 },
        );
      throw error;
    }
  }
}

/** The balance fields of a spin's answer: the wallet's last confirmed balance and the wins not answered yet. */
export function balanceView(balance: ShownBalance, currency: string): { balance: number | null; pendingWin: number } {
  return {
    balance: balance.balanceMinor === undefined ? null : formatAmount(balance.balanceMinor, currency),
    pendingWin: formatAmount(balance.pendingWinMinor, currency),
  };
}

/** A steered spin's Regular Bonus Call after it, in the spin's currency (a steered spin's bonus is in the session's). */
function regularBonusSpinView(decision: SteeredSpinDecision, currency: string): NonNullable<SpinResult['bonus']> {
  const money = (minor: number) => formatAmount(minor, currency);
  return {
    bonusType: BonusTypes.regular,
    issueId: decision.issueId,
    spinNumber: decision.spinNumber,
    callAmount: money(decision.callAmountMinor),
    delivered: money(decision.totalWinMinor),
    left: money(Math.max(0, decision.callAmountMinor - decision.totalWinMinor)),
    topUp: money(decision.topUpMinor),
    status: decision.status,
    completed: decision.completed,
  };
}

/** The value, or the domain's refusal thrown for the edge to answer. */
function accepted<T>(decision: T | Refusal): T {
  if (isRefusal(decision)) throw RefusedError.from(decision);
  return decision;
}
