import type { SlotModel } from '../slot/slot-model.js';
import { CARD_ROYALS } from './card-royals.js';
import { firstPaylines } from './paylines.js';

/**
 * Sky Temple: high volatility (σ ≈ 5.2 bets per paid spin; 5.5 streamer), 5×3, 20 lines at 1 coin
 * each. Wilds come in stacks of two on reels 2–5; the low symbols are spread unevenly across reels
 * 1–3 so that small line wins are scarcer. 3, 4 or 5 temple scatters award 12, 18 or 25 bonus
 * games with every win tripled.
 *
 * Strips: each string is one reel, one symbol per character, read top to bottom and wrapping.
 * They were tuned so that `theoreticalRtp` lands on each profile's target (tests hold it to ±0.05 %).
 */
export const skyTemple: SlotModel = {
  kind: 'slot',
  id: 'sky-temple',
  name: 'Sky Temple',
  rows: 3,
  symbols: [
    { code: 'W', name: 'Sun Wild', role: 'wild' },
    { code: 'S', name: 'Temple', role: 'scatter' },
    { code: 'M', name: 'Mask', role: 'regular' },
    { code: 'I', name: 'Idol', role: 'regular' },
    { code: 'V', name: 'Vase', role: 'regular' },
    { code: 'D', name: 'Dagger', role: 'regular' },
    ...CARD_ROYALS,
  ],
  paylines: firstPaylines(20),
  linePays: {
    W: { 3: 150, 4: 750, 5: 5000 },
    M: { 3: 100, 4: 400, 5: 2000 },
    I: { 3: 50, 4: 200, 5: 800 },
    V: { 3: 30, 4: 120, 5: 500 },
    D: { 3: 25, 4: 80, 5: 300 },
    A: { 3: 10, 4: 30, 5: 100 },
    K: { 3: 8, 4: 25, 5: 80 },
    Q: { 3: 6, 4: 20, 5: 60 },
    J: { 3: 5, 4: 15, 5: 50 },
  },
  scatterPays: { 3: 40, 4: 400, 5: 4000 },
  bonus: { freeGames: { 3: 12, 4: 18, 5: 25 }, multiplier: 3 },
  coinsPerBet: 20,
  profiles: {
    standard: {
      targetRtp: 0.96,
      reels: [
        'ASQKIAVMQDAQAQKIVMADQAQAKIQVMDAQJ',
        'JKJIAQKMDJVKJKAJQSKDVJIKMWWJKAQJDKV',
        'AQWWJMVDKAQAQSAQJIVDKAQMAQJAQVDKAQI',
        'QAJKQJADSVIQKJWWAMQJDKAVQJKIAQJDMVK',
        'KMIQAVJKQJADKQVJAMSIQJKDAQVJKWWAQJD',
      ],
    },
    streamer: {
      targetRtp: 1.07,
      reels: [
        'ASQKIAVMQDAQAQKIVMADQAQAKIQVMDAQJ',
        'JKAIQKJMDAKJVKAQSKDJIKAMWWJKQAVDK',
        'AQWWJMVDKAQAQSAQJIVDKAQMAQJAQVDKAQI',
        'QAJKQJADSVKIQJWWAMKQJDAVKQJKIAQJDMVK',
        'KMIQAVJKQJADKQVJAMSIQJKDAQVJKWWAQJD',
      ],
    },
  },
};
