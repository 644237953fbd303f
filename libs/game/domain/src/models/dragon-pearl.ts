import type { SlotModel } from '../slot/slot-model.js';
import { CARD_ROYALS } from './card-royals.js';
import { firstPaylines } from './paylines.js';

/**
 * Dragon Pearl: medium volatility (σ ≈ 3.4 bets per paid spin; 4.1 streamer), 5×3, 20 lines at 1
 * coin each. The dragon wild stands on reels 2–5 only; 3, 4 or 5 pearl scatters anywhere award 10,
 * 15 or 20 bonus games with every win tripled.
 *
 * Strips: each string is one reel, one symbol per character, read top to bottom and wrapping.
 * They were tuned so that `theoreticalRtp` lands on each profile's target (tests hold it to ±0.05 %).
 */
export const dragonPearl: SlotModel = {
  kind: 'slot',
  id: 'dragon-pearl',
  name: 'Dragon Pearl',
  rows: 3,
  symbols: [
    { code: 'W', name: 'Dragon Wild', role: 'wild' },
    { code: 'S', name: 'Pearl', role: 'scatter' },
    { code: 'P', name: 'Phoenix', role: 'regular' },
    { code: 'L', name: 'Lantern', role: 'regular' },
    { code: 'C', name: 'Gold Coin', role: 'regular' },
    { code: 'F', name: 'Fan', role: 'regular' },
    ...CARD_ROYALS,
  ],
  paylines: firstPaylines(20),
  linePays: {
    W: { 3: 100, 4: 400, 5: 2000 },
    P: { 3: 60, 4: 200, 5: 1000 },
    L: { 3: 40, 4: 120, 5: 500 },
    C: { 3: 30, 4: 80, 5: 300 },
    F: { 3: 20, 4: 60, 5: 200 },
    A: { 3: 12, 4: 30, 5: 100 },
    K: { 3: 10, 4: 25, 5: 80 },
    Q: { 3: 8, 4: 20, 5: 60 },
    J: { 3: 5, 4: 15, 5: 50 },
  },
  scatterPays: { 3: 40, 4: 200, 5: 1000 },
  bonus: { freeGames: { 3: 10, 4: 15, 5: 20 }, multiplier: 3 },
  coinsPerBet: 20,
  profiles: {
    standard: {
      targetRtp: 0.965,
      reels: [
        'ASKQPCLFAQKPJQAKCPFQAJKLPQCAKFPQJ',
        'JQKAPFQKJLCAWQKFPAJSQKCFAQKJPWAQKFC',
        'WJQPAKCFQJAKSQPLJCAKFWQJAKQPCFJAKQL',
        'QAJKQWJAFSCLQKJAPQJFKACQWJKLAQJFPCK',
        'KPLQACJKQJAFKWQCJAPSLQJKFAQCJKAWQJF',
      ],
    },
    streamer: {
      targetRtp: 1.06,
      reels: [
        'ASKQPCLFAQPKJQPAKCFQPAJKLQPCAKFQPJ',
        'JQKAPFQKJLCAWQKFPAJSQKCFAQKJPWAQKFC',
        'WPJQAKCFQAKPJSQLCAKFWPJQAKQPJCFAKQL',
        'QAJQLWKJAFSCQJAPKQLJFACQWKJAQLJFPKC',
        'KPLQACJKQJAFKWQCJAPSLQJKFAQCJKAWQJF',
      ],
    },
  },
};
