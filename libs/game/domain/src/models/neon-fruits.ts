import type { SlotModel } from '../slot/slot-model.js';
import { firstPaylines } from './paylines.js';

/**
 * Neon Fruits: medium volatility (σ ≈ 3.7 bets per paid spin; 3.9 streamer), a classic fruit
 * machine, 5×3, 10 lines at 1 coin each. Two cherries already pay; the neon wild stands on reels
 * 2–5 only; 3, 4 or 5 star scatters award 10, 12 or 15 bonus games with every win doubled.
 *
 * Strips: each string is one reel, one symbol per character, read top to bottom and wrapping.
 * They were tuned so that `theoreticalRtp` lands on each profile's target (tests hold it to ±0.05 %).
 */
export const neonFruits: SlotModel = {
  kind: 'slot',
  id: 'neon-fruits',
  name: 'Neon Fruits',
  rows: 3,
  symbols: [
    { code: 'W', name: 'Neon Wild', role: 'wild' },
    { code: 'S', name: 'Star', role: 'scatter' },
    { code: '7', name: 'Seven', role: 'regular' },
    { code: 'B', name: 'Bar', role: 'regular' },
    { code: 'M', name: 'Melon', role: 'regular' },
    { code: 'G', name: 'Grapes', role: 'regular' },
    { code: 'P', name: 'Plum', role: 'regular' },
    { code: 'O', name: 'Orange', role: 'regular' },
    { code: 'L', name: 'Lemon', role: 'regular' },
    { code: 'C', name: 'Cherry', role: 'regular' },
  ],
  paylines: firstPaylines(10),
  linePays: {
    '7': { 3: 50, 4: 200, 5: 1000 },
    W: { 3: 60, 4: 300, 5: 1250 },
    B: { 3: 30, 4: 120, 5: 500 },
    M: { 3: 25, 4: 80, 5: 300 },
    G: { 3: 20, 4: 60, 5: 250 },
    P: { 3: 12, 4: 30, 5: 120 },
    O: { 3: 10, 4: 25, 5: 100 },
    L: { 3: 8, 4: 20, 5: 80 },
    C: { 2: 2, 3: 6, 4: 15, 5: 60 },
  },
  scatterPays: { 3: 20, 4: 100, 5: 500 },
  bonus: { freeGames: { 3: 10, 4: 12, 5: 15 }, multiplier: 2 },
  coinsPerBet: 10,
  profiles: {
    standard: {
      targetRtp: 0.97,
      reels: [
        'PSOLM7BCGLOPCML7GOCBLPCMO7GLC',
        'CLPOBC7GMLWPOCLSGCMPOBL7CWPOLGM',
        'WCLPO7MGCLSPOBCMLGWPO7CLMGCPOLB',
        'LPCWOLGCPSMBL7COPGLMCWOPBLCG7OM',
        'O7BMPCLOCGPLOWMC7SBOPLGCMOPLWCG',
      ],
    },
    streamer: {
      targetRtp: 1.04,
      reels: [
        'SOPLM7BCGLOMCL7GOPCMBLCO7MGLC',
        'CLOBC7GPMLWOCLSGCMOBL7PCWOLGM',
        'WCLOP7MGLOCSPBMLOGWCP7LOCMGPLOB',
        'LPCWOLGCPSMBL7COPGLMCWOPBLCG7OM',
        'O7BMPCLOCGPLOWMC7SBOPLGCMOPLWCG',
      ],
    },
  },
};
