/**
 * One Regular Bonus Call played to completion with `selectSteeredSpin`, spin after spin at one
 * bet, as the game-server would play it: the bench and the tests of ADR 0012's invariants use it.
 */
import type { GameModel } from '../game-model.js';
import type { Profile } from '../profile.js';
import type { Rng } from '../rng/rng.js';
import { REGULAR_BONUS_MAX_SPINS, selectSteeredSpin, type SteeredSpin } from './steered-outcome.js';

export interface SimulatedRegularBonus {
  readonly spins: readonly SteeredSpin[];
  /** Sum of every spin's reels win and top-up. */
  readonly deliveredMinor: number;
  readonly topUpMinor: number;
}

export function simulateRegularBonus(input: {
  readonly model: GameModel;
  readonly profile: Profile;
  readonly betMinor: number;
  readonly callAmountMinor: number;
  readonly rng: Rng;
}): SimulatedRegularBonus {
  const spins: SteeredSpin[] = [];
  let delivered = 0;
  // One spin past the bound would be a broken rule: stop there and let the caller see it.
  while (spins.length <= REGULAR_BONUS_MAX_SPINS) {
    const spin = selectSteeredSpin({
      ...input,
      targetLeftMinor: input.callAmountMinor - delivered,
      spinNumber: spins.length + 1,
    });
    spins.push(spin);
    delivered += spin.deliveredMinor;
    if (spin.completes) break;
  }
  return { spins, deliveredMinor: delivered, topUpMinor: spins.reduce((sum, spin) => sum + spin.topUpMinor, 0) };
}
