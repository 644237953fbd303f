import type { SlotModel } from '../slot/slot-model.js';
import { CARD_ROYALS } from './card-royals.js';
import { firstPaylines } from './paylines.js';

/**
 * Lotus Garden: low volatility (σ ≈ 2.3 bets per paid spin; 2.6 streamer), 5×3, 20 lines at 1 coin
 * each. The jade wild stands on reels 2–5 only; 3, 4 or 5 lotus scatters anywhere award 8, 10 or
 * 15 bonus games with every win doubled. Small, frequent line wins carry most of the return.
 *
 * Strips: each string is one reel, one symbol per character, read top to bottom and wrapping.
 * They were tuned so that `theoreticalRtp` lands on each profile's target (tests hold it to ±0.05 %).
 */
export const lotusGarden: SlotModel = {
  kind: 'slot',
  id: 'lotus-garden',
  name: 'Lotus Garden',
  rows: 3,
  symbols: [
    { code: 'W', name: 'Jade Wild', role: 'wild' },
    { code: 'S', name: 'Lotus', role: 'scatter' },
    { code: 'G', name: 'Golden Koi', role: 'regular' },
    { code: 'C', name: 'Crane', role: 'regular' },
    { code: 'T', name: 'Turtle', role: 'regular' },
    { code: 'B', name: 'Bamboo', role: 'regular' },
    ...CARD_ROYALS,
  ],
  paylines: firstPaylines(20),
  linePays: {
    W: { 3: 75, 4: 200, 5: 750 },
    G: { 3: 50, 4: 150, 5: 400 },
    C: { 3: 40, 4: 100, 5: 300 },
    T: { 3: 30, 4: 80, 5: 250 },
    B: { 3: 25, 4: 60, 5: 200 },
    A: { 3: 15, 4: 40, 5: 120 },
    K: { 3: 15, 4: 30, 5: 100 },
    Q: { 3: 12, 4: 25, 5: 80 },
    J: { 3: 10, 4: 20, 5: 60 },
  },
  scatterPays: { 3: 40, 4: 100, 5: 400 },
  bonus: { freeGames: { 3: 8, 4: 10, 5: 15 }, multiplier: 2 },
  coinsPerBet: 20,
  profiles: {
    standard: {
      targetRtp: 0.96,
      reels: [
        'ASKQCTJBGAQKJCTQABKJQGCAJTKBQJ',
        'JCQAKJGBTQWAKJCQSBJTAKQGCJWAKQBT',
        'WJQAKGTBJCQSAKJTQBWAKCGJQTBJAKQC',
        'QAJCWKQBJASTQGJKACBQTJWKAQJCBGKT',
        'KGCTAJQKJBACQWTKJGSAQBCJKTAQWJB',
      ],
    },
    streamer: {
      targetRtp: 1.05,
      reels: [
        'ASCKQTBCGAQJKCTQABKJCQGATKCBQJ',
        'JCQAKBQJTCWAKQGJSCBQTAKQJCWAKBQT',
        'WJQAKGTBJCQSAKJTQBWAKCGJQTBJAKQC',
        'QAJCWKQBJASTQGJKACBQTJWKAQJCBGKT',
        'KGCTAJQKJBACQWTKJGSAQBCJKTAQWJB',
      ],
    },
  },
};
