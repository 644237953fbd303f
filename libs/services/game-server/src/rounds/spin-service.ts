/**
 * `POST /api/sessions/{token}/spin` (D23): which round a spin is, and its result for the page.
 * A free spin when the session's player has an active Free Spin Bonus for this game; otherwise a
 * paid spin at one of the game's bet levels, with isBonusBusy per D21; a demo session plays with
 * play money. One spin at a time per session.
 */
import type { SpinRequest, SpinResult, WalletReply } from '@reelstream/contracts';
import { profileForSession, type GameModel, type Profile } from '@reelstream/game-domain';
import { formatAmount, tryParseAmount } from '@reelstream/money';
import type { GameTable } from '../catalog/game-table.js';
import { ApiError, ledgerTimeoutAsApiError } from '@reelstream/http';
import { activeBonusOf, freeSpinBonusFor, playableIn } from '../sessions/bonus-views.js';
import type { GameSession, SessionRepository } from '../sessions/session-repository.js';
import type { SpinLocks } from '../sessions/spin-locks.js';
import { WalletTimeoutError } from '../wallet/wallet-client.js';
import { playDemoRound } from './demo-rounds.js';
import { playFreeSpin } from './free-rounds.js';
import { outcomeView } from './outcome-view.js';
import { beginPaidRound, completePaidRound, stakeRequestOf } from './paid-rounds.js';
import type { RoundDeps } from './round-deps.js';

export interface SpinServiceDeps {
  readonly round: RoundDeps;
  readonly sessions: SessionRepository;
  readonly table: GameTable;
  readonly locks: SpinLocks;
}

interface PlayedGame {
  readonly model: GameModel;
  readonly profile: Profile;
  readonly betLevelsMinor: readonly number[];
}

export class SpinService {
  constructor(private readonly deps: SpinServiceDeps) {}

  async spin(token: string, request: SpinRequest, correlationId: string): Promise<SpinResult> {
    const session = await this.deps.sessions.playable(token);
    if (request.playerId !== undefined && request.playerId !== session.playerId) {
      throw new ApiError('FORBIDDEN', 'This game session belongs to another player.');
    }
    const game = this.gameOf(session);
    return this.deps.locks.withLock(token, async () =>
      session.demo ? this.demoSpin(session, game, request) : this.realSpin(session, game, request, correlationId),
    );
  }

  private gameOf(session: GameSession): PlayedGame {
    const found = this.deps.table.find(session.gameId);
    if (!found) throw new ApiError('GAME_NOT_FOUND', `Game ${session.gameId} is no longer offered.`);
    return {
      model: found.model,
      profile: profileForSession(session.isStreamer),
      betLevelsMinor: this.deps.table.betLevelsMinor(found.game, session.currency),
    };
  }

  private demoSpin(session: GameSession, game: PlayedGame, request: SpinRequest): SpinResult {
    if (request.issueId !== undefined) throw new ApiError('BONUS_NOT_FOUND', 'A demo session has no bonus.');
    const betMinor = betOf(request, game, session.currency);
    const round = playDemoRound(this.deps.round, session, game, betMinor);
    const money = (minor: number) => formatAmount(minor, session.currency);
    return {
      roundId: round.roundId,
      kind: 'demo',
      currency: session.currency,
      bet: money(betMinor),
      win: money(round.outcome.winMinor),
      balance: money(round.balanceMinor),
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
    const active = await activeBonusOf(this.deps.round.ledger, session, correlationId);
    const bonus = freeSpinBonusFor(active, session.gameId);
    if (request.issueId !== undefined && request.issueId !== bonus?.issueId) {
      throw new ApiError('BONUS_NOT_FOUND', 'This session has no active free-spin bonus with that id.');
    }
    // D6 amended: a bonus of another currency is not played here (nothing converts): spins are paid.
    if (bonus && !playableIn(bonus, session)) {
      if (request.issueId !== undefined) {
        throw new ApiError('BONUS_CURRENCY_MISMATCH', undefined, [
          {
            path: 'issueId',
            message: `bonus ${bonus.issueId} is in ${bonus.currency}; this session plays in ${session.currency}`,
          },
        ]);
      }
    } else if (bonus) return this.freeSpin(session, game, bonus, correlationId);
    return this.paidSpin(
      session,
      game,
      betOf(request, game, session.currency),
      active !== null && active.status === 'active',
      correlationId,
    );
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
      throw ledgerTimeoutAsApiError(error, 'your free spin is kept and finishes on your next spin.', 2);
    }
    const money = (minor: number) => formatAmount(minor, session.currency);
    const { settle } = played;
    return {
      roundId: played.started.roundId,
      kind: 'free',
      currency: session.currency,
      bet: money(played.started.betMinor),
      win: money(settle.winMinor),
      balance: played.balanceMinor === undefined ? null : money(played.balanceMinor),
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
    betMinor: number,
    isBonusBusy: boolean,
    correlationId: string,
  ): Promise<SpinResult> {
    const { round } = this.deps;
    const started = await beginPaidRound(
      round,
      { session, model: game.model, profile: game.profile, betMinor, isBonusBusy },
      correlationId,
    );
    const result = await round.inFlight.hold(started.roundId, async () => {
      let answer: WalletReply;
      try {
        answer = await round.wallet.stake(stakeRequestOf(started));
      } catch (error) {
        if (error instanceof WalletTimeoutError) {
          round.logger.warn('bet not answered in time; the round is left to the resolver', {
            roundId: started.roundId,
            transactionId: started.transactionId,
            timeoutMs: error.timeoutMs,
          });
          throw new ApiError('WALLET_UNAVAILABLE', undefined, [{ path: 'roundId', message: String(started.roundId) }], {
            'Retry-After': '5',
          });
        }
        throw error;
      }
      return completePaidRound(round, started, answer, correlationId);
    });
    const money = (minor: number) => formatAmount(minor, session.currency);
    if (result.status === 'canceled') {
      // The operator's detail (an HTTP body, a socket error) is for the log; the player gets the status code only.
      round.logger.warn('the operator wallet refused the bet; the round is canceled', {
        roundId: started.roundId,
        transactionId: started.transactionId,
        statusCode: result.answer?.statusCode,
        reason: result.reason,
      });
      throw refusalOf(result.answer?.statusCode);
    }
    return {
      roundId: started.roundId,
      kind: 'paid',
      currency: session.currency,
      bet: money(betMinor),
      win: money(result.winMinor),
      balance: result.balanceMinor === undefined ? null : money(result.balanceMinor),
      outcome: outcomeView(result.outcome, session.currency),
      bonus: null,
    };
  }
}

function betOf(request: SpinRequest, game: PlayedGame, currency: string): number {
  if (request.bet === undefined)
    throw new ApiError('VALIDATION_FAILED', 'A paid spin needs a bet.', [
      { path: 'bet', message: 'required for a paid spin' },
    ]);
  const parsed = tryParseAmount(request.bet, currency);
  if (!parsed.ok)
    throw new ApiError(
      parsed.error.code === 'AMOUNT_PRECISION' ? 'AMOUNT_PRECISION' : 'VALIDATION_FAILED',
      parsed.error.message,
      [{ path: 'bet', message: parsed.error.message }],
    );
  if (!game.betLevelsMinor.includes(parsed.minor)) {
    const levels = game.betLevelsMinor.map((minor) => formatAmount(minor, currency)).join(', ');
    throw new ApiError('BET_NOT_ALLOWED', undefined, [{ path: 'bet', message: `must be one of ${levels}` }]);
  }
  return parsed.minor;
}

/** The player is told why the bet was refused; the round is canceled either way (the dispatcher sends the cancel). */
function refusalOf(statusCode: WalletReply['statusCode'] | undefined): ApiError {
  const details = [{ path: 'statusCode', message: statusCode ?? 'ERR_UNKNOWN' }];
  if (statusCode === 'ERR_NOT_ENOUGH_MONEY') return new ApiError('INSUFFICIENT_FUNDS', undefined, details);
  if (statusCode === 'ERR_NOT_AUTHENTICATED') return new ApiError('PLAYER_NOT_AUTHENTICATED', undefined, details);
  return new ApiError('BET_REJECTED', undefined, details);
}
