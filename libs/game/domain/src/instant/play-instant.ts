import { coinsToMinor } from '../coins.js';
import type { Rng } from '../rng/rng.js';
import type { SeededRng } from '../rng/seeded-rng.js';
import type { InstantOutcome } from '../round/round-outcome.js';
import type { SimulationTally } from '../simulation-tally.js';
import { segmentAt, type CompiledWheel } from './compiled-wheel.js';

/** One draw over the wheel's total weight decides the whole round. */
export function playInstant(wheel: CompiledWheel, betMinor: number, rng: Rng): Omit<InstantOutcome, 'draws'> {
  const segment = segmentAt(wheel, rng.nextInt(wheel.totalWeight));
  const multiplierCoins = wheel.multiplierCoins[segment] ?? 0;
  return {
    kind: 'instant',
    modelId: wheel.model.id,
    profile: wheel.profile,
    betMinor,
    coinsPerBet: wheel.coinsPerBet,
    segment,
    multiplierCoins,
    winCoins: multiplierCoins,
    winMinor: coinsToMinor(betMinor, multiplierCoins, wheel.coinsPerBet),
  };
}

export function simulateInstant(wheel: CompiledWheel, rounds: number, rng: SeededRng, tally: SimulationTally): void {
  const { totalWeight, multiplierCoins } = wheel;
  for (let i = 0; i < rounds; i++) tally.add(multiplierCoins[segmentAt(wheel, rng.nextInt(totalWeight))] as number);
}

/** Exact: Σ weight · pay / (total weight · coinsPerBet). */
export function wheelRtp(wheel: CompiledWheel): number {
  let coins = 0;
  wheel.upperBounds.forEach((upper, index) => {
    const weight = upper - (wheel.upperBounds[index - 1] ?? 0);
    coins += weight * (wheel.multiplierCoins[index] ?? 0);
  });
  return coins / (wheel.totalWeight * wheel.coinsPerBet);
}
