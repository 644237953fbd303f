/**
 * A demo round: the same engine, the session's RTP profile, play money kept per session by the
 * game-server. No wallet, no bonus, nothing stored: there is no money to account for.
 */
import { RefusedError } from '@reelstream/contracts';
import { playRound, type GameModel, type GameSession, type Profile, type RoundOutcome } from '@reelstream/game-domain';
import type { RoundDeps } from './round-deps.js';

export interface DemoRound {
  readonly roundId: number;
  readonly outcome: RoundOutcome;
  readonly balanceMinor: number;
}

export function playDemoRound(
  deps: RoundDeps,
  session: GameSession,
  game: { model: GameModel; profile: Profile },
  betMinor: number,
): DemoRound {
  if (deps.balances.demoBalance(session.token, session.currency) < betMinor)
    throw new RefusedError('INSUFFICIENT_FUNDS', 'The play money left does not cover this bet.');
  const outcome = playRound({ model: game.model, profile: game.profile, betMinor, rng: deps.rng });
  const balanceMinor = deps.balances.settleDemo(session.token, session.currency, betMinor, outcome.winMinor);
  if (balanceMinor === undefined)
    throw new RefusedError('INSUFFICIENT_FUNDS', 'The play money left does not cover this bet.');
  return { roundId: deps.ids.next(), outcome, balanceMinor };
}
