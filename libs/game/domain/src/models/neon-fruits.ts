import data from './neon-fruits.json' with { type: 'json' };
import { slotModelOf } from './slot-data.js';

/**
 * Neon Fruits: medium volatility (σ ≈ 3.7 bets per paid spin; 3.9 streamer), a classic fruit
 * machine, 5×3, 10 lines at 1 coin each. Two cherries already pay; the neon wild stands on reels
 * 2–5 only; 3, 4 or 5 star scatters award 10, 12 or 15 bonus games with every win doubled.
 */
export const neonFruits = slotModelOf(data);
