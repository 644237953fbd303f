import type { SlotModel } from '../slot/slot-model.js';
import { CARD_ROYALS } from './card-royals.js';
import { firstPaylines } from './paylines.js';

/**
 * Thunder Vault: high volatility (σ ≈ 5.0 bets per paid spin; 5.3 streamer), 5×3, 25 lines at 1
 * coin each. Wilds come in stacks of two on reels 2–5; the low symbols are spread unevenly across
 * reels 1–3 so that small line wins are scarcer. 3, 4 or 5 vault scatters award 15, 20 or 30 bonus
 * games with every win tripled, which is where a fifth of the return sits.
 *
 * Strips: each string is one reel, one symbol per character, read top to bottom and wrapping.
 * They were tuned so that `theoreticalRtp` lands on each profile's target (tests hold it to ±0.05 %).
 */
export const thunderVault: SlotModel = {
  kind: 'slot',
  id: 'thunder-vault',
  name: 'Thunder Vault',
  rows: 3,
  symbols: [
    { code: 'W', name: 'Thunder Wild', role: 'wild' },
    { code: 'S', name: 'Vault', role: 'scatter' },
    { code: 'H', name: 'Hammer', role: 'regular' },
    { code: 'E', name: 'Eagle', role: 'regular' },
    { code: 'R', name: 'Rune', role: 'regular' },
    { code: 'X', name: 'Axe', role: 'regular' },
    ...CARD_ROYALS,
  ],
  paylines: firstPaylines(25),
  linePays: {
    W: { 3: 150, 4: 800, 5: 4000 },
    H: { 3: 80, 4: 400, 5: 2000 },
    E: { 3: 40, 4: 200, 5: 800 },
    R: { 3: 30, 4: 100, 5: 400 },
    X: { 3: 20, 4: 80, 5: 300 },
    A: { 3: 10, 4: 30, 5: 100 },
    K: { 3: 8, 4: 25, 5: 80 },
    Q: { 3: 6, 4: 20, 5: 60 },
    J: { 3: 5, 4: 15, 5: 50 },
  },
  scatterPays: { 3: 50, 4: 250, 5: 2500 },
  bonus: { freeGames: { 3: 15, 4: 20, 5: 30 }, multiplier: 3 },
  coinsPerBet: 25,
  profiles: {
    standard: {
      targetRtp: 0.955,
      reels: [
        'ASQARKEQXAHQAQRJAXQAKEQAHQRXAQJ',
        'JKJEAKHXJQRKJAJKSXRJEKHWWJQKAJXKR',
        'AQWWHRJXAQKAQSAQERXAQHJAQKAQRXAQE',
        'QAJKQJAXSREQKJWWAHQJXKARQJKEAQJXHRK',
        'KHEQAJRKXQJAKQJAXHSEQJKRAXQJKWWAQJX',
      ],
    },
    streamer: {
      targetRtp: 1.06,
      reels: [
        'ASQARKEQXAHQAQRJAXQAKEQAHQRXAQJ',
        'JKAEJKHXQRAJKAJKSXREKJAHWWQKJAXKR',
        'AQWWHRJXAQKAQSAQERXAQHJAQKAQRXAQE',
        'QAJKQJAXSEQKJWWAHRQJXKAQJKEAQJXHRK',
        'KHEQAJRKXQJAKQJAXHSEQJKRAXQJKWWAQJX',
      ],
    },
  },
};
