import type { SeededRng } from '../rng/seeded-rng.js';
import type { SimulationTally } from '../simulation-tally.js';
import type { CompiledSlot } from './compiled-slot.js';
import { computeLineKeys, drawStops, lineWinCoins, visibleScatters } from './spin-evaluation.js';

/**
 * `playSlot` without the pictures: the same draws in the same order and the same evaluation,
 * tallied instead of described. Allocates its two scratch arrays once per call, nothing per spin.
 */
export function simulateSlot(slot: CompiledSlot, spins: number, rng: SeededRng, tally: SimulationTally): void {
  const stops = new Int32Array(slot.reelCount);
  const keys = new Int32Array(slot.lineCount);
  const { scatterPayCoins, freeGames, bonusMultiplier } = slot;

  for (let i = 0; i < spins; i++) {
    drawStops(slot, rng, stops);
    computeLineKeys(slot, stops, keys);
    const scatters = visibleScatters(slot, stops);
    let win = lineWinCoins(slot, keys) + (scatterPayCoins[scatters] as number);

    const awarded = freeGames[scatters] as number;
    if (awarded > 0) {
      tally.bonusTriggers++;
      tally.bonusGames += awarded;
      let bonusWin = 0;
      for (let game = 0; game < awarded; game++) {
        drawStops(slot, rng, stops);
        computeLineKeys(slot, stops, keys);
        bonusWin += lineWinCoins(slot, keys) + (scatterPayCoins[visibleScatters(slot, stops)] as number);
      }
      win += bonusWin * bonusMultiplier;
    }
    tally.add(win);
  }
}
