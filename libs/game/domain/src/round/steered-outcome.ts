/**
 * Outcome selection of a Regular Bonus Call (bonusType 2; docs/adr/0012-regular-bonus-call-outcomes.md):
 * a paid spin played while the player's Regular Bonus Call is active is steered toward what is
 * left of its target (`callAmount` minus the wins already delivered). The rule, per spin:
 *
 * 1. Draw up to `candidatesPerSpin` real rounds from the model and the RNG (`playRound`: reels,
 *    lines, scatters and a triggered bonus round with its whole win). A candidate fits when its
 *    win is at most what is left.
 * 2. A candidate that pays exactly what is left ends the search: it is the spin's result and the
 *    bonus is complete.
 * 3. Otherwise the fitting candidate that pays the most is the spin's result (a losing result
 *    fits any target, so one is always found in practice).
 * 4. The spin pays a top-up of (what is left − its win) and completes the bonus when no real
 *    result can finish it exactly any more: what is left is below the smallest win the model
 *    can pay at this bet, or this is spin number `maxSpins`.
 *
 * So every result shown is a real result of the model, the wins under the bonus add up to
 * `callAmount` exactly (the top-up closes the gap), and a bonus completes in at most `maxSpins`
 * spins. Pure: the RNG is the only source of chance, passed in.
 */
import { ReelstreamError } from '@reelstream/contracts';
import { coinsToMinor } from '../coins.js';
import { InvariantError } from '../model-error.js';
import type { GameModel } from '../game-model.js';
import type { Profile } from '../profile.js';
import type { Rng } from '../rng/rng.js';
import { playRound } from './play-round.js';
import type { RoundOutcome } from './round-outcome.js';

/** The bound: a Regular Bonus Call completes on or before its 50th steered spin. */
export const REGULAR_BONUS_MAX_SPINS = 50;
/** Real rounds drawn per steered spin to choose from. */
const REGULAR_BONUS_CANDIDATES = 64;
/** What is left, in bets, from which a spin draws `ENDGAME_FACTOR` times more candidates. */
const ENDGAME_BETS = 20;
const ENDGAME_FACTOR = 8;
/** Draws allowed before a spin gives up finding any fitting result (a model with no losing result). */
const MAX_DRAWS_PER_SPIN = 10_000;

export interface SteeredSpinInput {
  readonly model: GameModel;
  readonly profile: Profile;
  readonly betMinor: number;
  /** What is still to deliver (callAmount − wins delivered so far), minor units; 0 after completion. */
  readonly targetLeftMinor: number;
  /** This spin's number under the bonus, from 1. */
  readonly spinNumber: number;
  readonly rng: Rng;
  readonly maxSpins?: number;
  readonly candidatesPerSpin?: number;
}

export interface SteeredSpin {
  /** The round as played: a real result of the model, replayable from its draws. */
  readonly outcome: RoundOutcome;
  /** Paid on top of the reels' win to close the gap on the spin that completes the bonus; 0 otherwise. */
  readonly topUpMinor: number;
  /** The reels' win plus the top-up: what this spin delivers. */
  readonly deliveredMinor: number;
  /** This spin delivers the last of the target. */
  readonly completes: boolean;
  /** Real rounds drawn to choose it. */
  readonly candidatesDrawn: number;
}

/** No round of the draws fits what is left: retriable, the next spin draws afresh. */
class SteeringError extends ReelstreamError {
  override readonly name = 'SteeringError';
  constructor(message: string) {
    super('INTERNAL', message, { retriable: true });
  }
}

export function selectSteeredSpin(input: SteeredSpinInput): SteeredSpin {
  const { model, profile, betMinor, targetLeftMinor, spinNumber, rng } = input;
  const maxSpins = input.maxSpins ?? REGULAR_BONUS_MAX_SPINS;
  const candidates = input.candidatesPerSpin ?? REGULAR_BONUS_CANDIDATES;
  if (!Number.isSafeInteger(targetLeftMinor) || targetLeftMinor < 0)
    throw new InvariantError(`targetLeftMinor must be a non-negative integer, got ${targetLeftMinor}`);
  if (!Number.isSafeInteger(spinNumber) || spinNumber < 1)
    throw new InvariantError(`spinNumber must be a positive integer, got ${spinNumber}`);

  const smallest = smallestWinMinor(model, profile, betMinor);
  // Near the end an exact hit is worth more draws: it saves a top-up.
  const wanted = targetLeftMinor <= ENDGAME_BETS * betMinor ? candidates * ENDGAME_FACTOR : candidates;
  let best: { readonly outcome: RoundOutcome; readonly leavesPlayable: boolean } | undefined;
  let drawn = 0;
  while (drawn < MAX_DRAWS_PER_SPIN && (drawn < wanted || best === undefined)) {
    const candidate = playRound({ model, profile, betMinor, rng });
    drawn++;
    if (candidate.winMinor > targetLeftMinor) continue;
    if (candidate.winMinor === targetLeftMinor) return steered(candidate, 0, targetLeftMinor > 0, drawn);
    // A result that leaves less than any win can pay forces a top-up: one that leaves a payable rest is better.
    // A losing result is taken only when nothing else fits.
    const leavesPlayable = candidate.winMinor > 0 && targetLeftMinor - candidate.winMinor >= smallest;
    if (
      best === undefined ||
      (leavesPlayable && !best.leavesPlayable) ||
      (leavesPlayable === best.leavesPlayable && candidate.winMinor > best.outcome.winMinor)
    )
      best = { outcome: candidate, leavesPlayable };
  }
  if (best === undefined)
    throw new SteeringError(`${drawn} rounds of ${model.id} all paid more than the ${targetLeftMinor} left`);
  const left = targetLeftMinor - best.outcome.winMinor;
  const lastChance = spinNumber >= maxSpins || left < smallest;
  return lastChance ? steered(best.outcome, left, true, drawn) : steered(best.outcome, 0, false, drawn);
}

function steered(outcome: RoundOutcome, topUpMinor: number, completes: boolean, drawn: number): SteeredSpin {
  return { outcome, topUpMinor, deliveredMinor: outcome.winMinor + topUpMinor, completes, candidatesDrawn: drawn };
}

/** The smallest positive win the model can pay at this bet (at least one minor unit). */
export function smallestWinMinor(model: GameModel, profile: Profile, betMinor: number): number {
  const pays =
    model.kind === 'slot'
      ? [
          ...Object.values(model.linePays).flatMap((byCount) => Object.values(byCount)),
          ...Object.values(model.scatterPays),
        ]
      : model.profiles[profile].segments.map((segment) => segment.multiplierCoins);
  const smallest = Math.min(...pays.filter((coins) => coins > 0));
  return Math.max(1, coinsToMinor(betMinor, smallest, model.coinsPerBet));
}
