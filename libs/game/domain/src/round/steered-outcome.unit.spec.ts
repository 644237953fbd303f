import { describe, expect, it } from '@jest/globals';
import {
  gameModels,
  REGULAR_BONUS_MAX_SPINS,
  SeededRng,
  selectSteeredSpin,
  simulateRegularBonus,
  smallestWinMinor,
  verifyRound,
} from '@reelstream/game-domain';

const RATIOS = [3, 25];
const PER_CASE = Math.ceil(500 / (gameModels.length * RATIOS.length));

describe('Regular Bonus Call outcome selection (ADR 0012)', () => {
  it.each(gameModels.flatMap((model) => RATIOS.map((ratio) => [model.id, ratio, model] as const)))(
    '%s at callAmount = %i bets: every total is the target, within the bound, from real results',
    (_id, ratio, model) => {
      const rng = new SeededRng(`steered:${model.id}:${ratio}`);
      for (let bonus = 0; bonus < PER_CASE; bonus++) {
        const betMinor = 100;
        const callAmountMinor = ratio * betMinor + bonus; // odd amounts too, which the reels may not pay exactly
        const played = simulateRegularBonus({ model, profile: 'standard', betMinor, callAmountMinor, rng });

        expect(played.deliveredMinor).toBe(callAmountMinor);
        expect(played.spins.length).toBeLessThanOrEqual(REGULAR_BONUS_MAX_SPINS);
        played.spins.forEach((spin, index) => {
          const last = index === played.spins.length - 1;
          expect(spin.completes).toBe(last);
          expect(verifyRound(spin.outcome)).toEqual({ ok: true });
          expect(spin.deliveredMinor).toBe(spin.outcome.winMinor + spin.topUpMinor);
          if (!last) expect(spin.topUpMinor).toBe(0);
        });
        const final = played.spins.at(-1);
        // A top-up only when no result could finish exactly: the rest is below the smallest win, or the bound is reached.
        if (final && final.topUpMinor > 0 && played.spins.length < REGULAR_BONUS_MAX_SPINS)
          expect(final.topUpMinor).toBeLessThan(smallestWinMinor(model, 'standard', betMinor));
      }
    },
  );

  it('nothing left to deliver: a real losing result, no top-up', () => {
    const [model] = gameModels;
    if (!model) throw new Error('no game model');
    const spin = selectSteeredSpin({
      model,
      profile: 'standard',
      betMinor: 100,
      targetLeftMinor: 0,
      spinNumber: 3,
      rng: new SeededRng('zero'),
    });
    expect(spin).toMatchObject({ deliveredMinor: 0, topUpMinor: 0, completes: false });
    expect(verifyRound(spin.outcome)).toEqual({ ok: true });
  });

  it('a target far beyond what the spins can pay is still completed on the last allowed spin, with a top-up', () => {
    const [model] = gameModels;
    if (!model) throw new Error('no game model');
    const played = simulateRegularBonus({
      model,
      profile: 'streamer',
      betMinor: 10,
      callAmountMinor: 10_000_000,
      rng: new SeededRng('huge'),
    });
    expect(played.spins).toHaveLength(REGULAR_BONUS_MAX_SPINS);
    expect(played.deliveredMinor).toBe(10_000_000);
    expect(played.topUpMinor).toBeGreaterThan(0);
  });

  it('refuses a negative target or a spin number below 1', () => {
    const [model] = gameModels;
    if (!model) throw new Error('no game model');
    const base = { model, profile: 'standard' as const, betMinor: 100, rng: new SeededRng('bad') };
    expect(() => selectSteeredSpin({ ...base, targetLeftMinor: -1, spinNumber: 1 })).toThrow(RangeError);
    expect(() => selectSteeredSpin({ ...base, targetLeftMinor: 100, spinNumber: 0 })).toThrow(RangeError);
  });
});
