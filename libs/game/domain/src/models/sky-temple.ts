import data from './sky-temple.json' with { type: 'json' };
import { slotModelOf } from './slot-data.js';

/**
 * Sky Temple: high volatility (σ ≈ 5.2 bets per paid spin; 5.5 streamer), 5×3, 20 lines at 1 coin
 * each. Wilds come in stacks of two on reels 2–5; the low symbols are spread unevenly across reels
 * 1–3 so that small line wins are scarcer. 3, 4 or 5 temple scatters award 12, 18 or 25 bonus
 * games with every win tripled.
 */
export const skyTemple = slotModelOf(data);
