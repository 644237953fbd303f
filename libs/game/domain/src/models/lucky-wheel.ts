import type { InstantModel } from '../instant/instant-model.js';

const segment = (multiplierCoins: number, weight: number) => ({ multiplierCoins, weight });

/**
 * Lucky Wheel: an instant game, one spin of a 1000-position wheel decides the bet's multiplier
 * (×0 to ×50), so bet and win settle together in one `betwin`. Multipliers are in tenths of the
 * bet (coinsPerBet 10); the return is exact by construction: Σ weight · coins / (1000 · 10).
 * Standard: 9700 / 10000 = 97 %; streamer: 10500 / 10000 = 105 %. σ ≈ 2.6 bets.
 */
export const luckyWheel: InstantModel = {
  kind: 'instant',
  id: 'lucky-wheel',
  name: 'Lucky Wheel',
  coinsPerBet: 10,
  profiles: {
    standard: {
      targetRtp: 0.97,
      segments: [
        segment(0, 548),
        segment(5, 80),
        segment(12, 100),
        segment(15, 100),
        segment(20, 80),
        segment(30, 50),
        segment(50, 30),
        segment(100, 10),
        segment(500, 2),
      ],
    },
    streamer: {
      targetRtp: 1.05,
      segments: [
        segment(0, 488),
        segment(5, 80),
        segment(12, 150),
        segment(15, 100),
        segment(20, 90),
        segment(30, 50),
        segment(50, 30),
        segment(100, 10),
        segment(500, 2),
      ],
    },
  },
};
