import data from './thunder-vault.json' with { type: 'json' };
import { slotModelOf } from './slot-data.js';

/**
 * Thunder Vault: high volatility (σ ≈ 5.0 bets per paid spin; 5.3 streamer), 5×3, 25 lines at 1
 * coin each. Wilds come in stacks of two on reels 2–5; the low symbols are spread unevenly across
 * reels 1–3 so that small line wins are scarcer. 3, 4 or 5 vault scatters award 15, 20 or 30 bonus
 * games with every win tripled, which is where a fifth of the return sits.
 */
export const thunderVault = slotModelOf(data);
