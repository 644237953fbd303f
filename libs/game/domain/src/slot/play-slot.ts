import { coinsToMinor } from '../coins.js';
import type { Rng } from '../rng/rng.js';
import type { BonusRound, SlotOutcome, SlotSpin } from '../round/round-outcome.js';
import type { CompiledSlot } from './compiled-slot.js';
import { describeSpin } from './describe-spin.js';
import { drawStops } from './spin-evaluation.js';

/**
 * One paid spin and, when its scatters trigger it, the bonus games that belong to it, all drawn
 * from `rng` in a fixed order (base reels, then each bonus game's reels).
 */
export function playSlot(slot: CompiledSlot, betMinor: number, rng: Rng): Omit<SlotOutcome, 'draws'> {
  const stops = new Int32Array(slot.reelCount);
  drawStops(slot, rng, stops);
  const base = describeSpin(slot, stops, 1);

  let bonus: BonusRound | null = null;
  const awardedGames = slot.freeGames[base.scatterCount] ?? 0;
  if (awardedGames > 0) {
    const spins: SlotSpin[] = [];
    let winCoins = 0;
    for (let game = 0; game < awardedGames; game++) {
      drawStops(slot, rng, stops);
      const spin = describeSpin(slot, stops, slot.bonusMultiplier);
      winCoins += spin.winCoins;
      spins.push(spin);
    }
    bonus = { triggeredBy: base.scatterCount, awardedGames, multiplier: slot.bonusMultiplier, spins, winCoins };
  }

  const winCoins = base.winCoins + (bonus?.winCoins ?? 0);
  return {
    kind: 'slot',
    modelId: slot.model.id,
    profile: slot.profile,
    betMinor,
    coinsPerBet: slot.coinsPerBet,
    base,
    bonus,
    winCoins,
    winMinor: coinsToMinor(betMinor, winCoins, slot.coinsPerBet),
  };
}
