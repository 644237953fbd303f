import type { GameModel } from './game-model.js';
import { InvariantError } from './model-error.js';
import { compileWheel } from './instant/compiled-wheel.js';
import { simulateInstant, wheelRtp } from './instant/play-instant.js';
import type { Profile } from './profile.js';
import { SeededRng } from './rng/seeded-rng.js';
import { SimulationTally, summarize, type SimulationResult } from './simulation-tally.js';
import { compileSlot } from './slot/compiled-slot.js';
import { simulateSlot } from './slot/simulate-slot.js';
import { slotRtp } from './slot/slot-rtp.js';

/**
 * Plays `spins` paid rounds from a seeded RNG with the engine's own evaluation, keeping only
 * sums: the same rounds `playRound` would play from `createSeededRng(seed)`, without records.
 */
export function simulate(model: GameModel, profile: Profile, spins: number, seed: string | number): SimulationResult {
  if (!Number.isSafeInteger(spins) || spins < 1)
    throw new InvariantError(`spins must be a positive integer, got ${spins}`);
  const rng = new SeededRng(seed);
  const tally = new SimulationTally();
  if (model.kind === 'slot') simulateSlot(compileSlot(model, profile), spins, rng, tally);
  else simulateInstant(compileWheel(model, profile), spins, rng, tally);
  return summarize(tally, model.coinsPerBet);
}

/** The exact long-run return of a model profile (win / bet), computed analytically. */
export function theoreticalRtp(model: GameModel, profile: Profile): number {
  return model.kind === 'slot' ? slotRtp(compileSlot(model, profile)).rtp : wheelRtp(compileWheel(model, profile));
}
