import data from './lotus-garden.json' with { type: 'json' };
import { slotModelOf } from './slot-data.js';

/**
 * Lotus Garden: low volatility (σ ≈ 2.3 bets per paid spin; 2.6 streamer), 5×3, 20 lines at 1 coin
 * each. The jade wild stands on reels 2–5 only; 3, 4 or 5 lotus scatters anywhere award 8, 10 or
 * 15 bonus games with every win doubled. Small, frequent line wins carry most of the return.
 */
export const lotusGarden = slotModelOf(data);
