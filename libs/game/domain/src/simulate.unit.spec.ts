import { describe, expect, it } from '@jest/globals';
import { compileSlot, gameModels, InvariantError, profiles, simulate, slotRtp } from '@reelstream/game-domain';

const SPINS = 200_000;

describe('simulated return of every model', () => {
  it.each(gameModels.flatMap((model) => profiles.map((profile) => [model.id, profile, model] as const)))(
    '%s (%s): 200,000 spins land within ±2 % of the target RTP',
    (_id, profile, model) => {
      const target = model.profiles[profile].targetRtp;
      const result = simulate(model, profile, SPINS, `unit:${model.id}:${profile}`);

      expect(result.spins).toBe(SPINS);
      expect(result.totalBetCoins).toBe(SPINS * model.coinsPerBet);
      expect(Math.abs(result.rtp - target)).toBeLessThanOrEqual(0.02);
      expect(result.hitRate).toBeGreaterThan(0.2);
      expect(result.hitRate).toBeLessThan(0.7);
      expect(result.stdDevPerSpin).toBeGreaterThan(1.5);
      expect(result.stdDevPerSpin).toBeLessThan(7);

      if (model.kind === 'slot') {
        // the trigger rate agrees with the exact scatter distribution (within 5 standard errors)
        const p = slotRtp(compileSlot(model, profile)).bonusTriggerProbability;
        expect(Math.abs(result.bonusTriggerRate - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / SPINS));
      } else {
        expect(result.bonusTriggerRate).toBe(0);
      }
    },
  );

  it('is deterministic for a seed and refuses a spin count that is not a positive integer', () => {
    const [model] = gameModels;
    if (!model) throw new Error('no models');
    expect(simulate(model, 'standard', 5000, 'same')).toEqual(simulate(model, 'standard', 5000, 'same'));
    expect(simulate(model, 'standard', 5000, 'same')).not.toEqual(simulate(model, 'standard', 5000, 'other'));
    expect(() => simulate(model, 'standard', 0, 'x')).toThrow(InvariantError);
    expect(() => simulate(model, 'standard', 2.5, 'x')).toThrow(InvariantError);
  });
});
