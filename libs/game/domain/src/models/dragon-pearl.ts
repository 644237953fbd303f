import data from './dragon-pearl.json' with { type: 'json' };
import { slotModelOf } from './slot-data.js';

/**
 * Dragon Pearl: medium volatility (σ ≈ 3.4 bets per paid spin; 4.1 streamer), 5×3, 20 lines at 1
 * coin each. The dragon wild stands on reels 2–5 only; 3, 4 or 5 pearl scatters anywhere award 10,
 * 15 or 20 bonus games with every win tripled.
 */
export const dragonPearl = slotModelOf(data);
