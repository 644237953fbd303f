import { describe, expect, it } from '@jest/globals';
import {
  compileSlot,
  gameModels,
  playRound,
  profiles,
  slotRtp,
  theoreticalRtp,
  type SlotModel,
} from '@reelstream/game-domain';
import { exactExpectation } from '../../test/fixtures.js';

/**
 * 3 reels × 2 rows, short strips, two of them with adjacent scatters so that one reel can show
 * two at once; pays for 2 and 3 of a kind, scatter pays from 2, and a bonus of two games ×2.
 */
const tiny: SlotModel = {
  kind: 'slot',
  id: 'tiny',
  name: 'Tiny',
  rows: 2,
  symbols: [
    { code: 'W', name: 'Wild', role: 'wild' },
    { code: 'S', name: 'Scatter', role: 'scatter' },
    { code: 'A', name: 'Ace', role: 'regular' },
    { code: 'B', name: 'Bell', role: 'regular' },
  ],
  paylines: [
    [0, 0, 0],
    [1, 1, 1],
    [0, 1, 0],
  ],
  linePays: { W: { 3: 20 }, A: { 2: 1, 3: 6 }, B: { 3: 4 } },
  scatterPays: { 2: 2, 3: 10, 5: 50 },
  bonus: { freeGames: { 3: 2 }, multiplier: 2 },
  coinsPerBet: 3,
  profiles: {
    standard: { targetRtp: 1, reels: ['ASB', 'WSA', 'BSSAW'] },
    streamer: { targetRtp: 1, reels: ['AWSB', 'WAS', 'BSAWA'] },
  },
};

describe('theoretical RTP', () => {
  it.each(profiles)('equals a brute-force enumeration of every possible round of a tiny model (%s)', (profile) => {
    // every sequence of draws the real engine can take, each weighted by its probability
    const { expectation, sequences } = exactExpectation(
      (rng) => playRound({ model: tiny, profile, betMinor: 3, rng }).winCoins,
    );
    expect(sequences).toBeGreaterThan(1000); // bonus rounds were enumerated, not only base spins
    // equal up to the rounding of summing thousands of products in floating point
    expect(theoreticalRtp(tiny, profile)).toBeCloseTo(expectation / tiny.coinsPerBet, 10);
  });

  it('splits into line, scatter and bonus parts with a scatter distribution that sums to 1', () => {
    const breakdown = slotRtp(compileSlot(tiny, 'standard'));
    expect(breakdown.scatterDistribution.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 14);
    expect(breakdown.scatterDistribution).toHaveLength(3 * 2 + 1);
    expect(breakdown.lineRtp + breakdown.scatterRtp + breakdown.bonusRtp).toBeCloseTo(breakdown.rtp, 14);
    expect(breakdown.bonusGamesPerSpin).toBeCloseTo(2 * breakdown.bonusTriggerProbability, 14);
  });

  it.each(gameModels.flatMap((model) => profiles.map((profile) => [model.id, profile, model] as const)))(
    '%s (%s) is tuned to its target RTP within ±0.05 percentage points',
    (_id, profile, model) => {
      const target = model.profiles[profile].targetRtp;
      expect(Math.abs(theoreticalRtp(model, profile) - target)).toBeLessThanOrEqual(0.0005);
      if (profile === 'streamer') expect(target).toBeGreaterThan(1);
      else expect(target).toBeLessThan(1);
    },
  );
});
