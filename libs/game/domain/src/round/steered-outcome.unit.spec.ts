import { describe, expect, it } from '@jest/globals';
import {
  gameModels,
  InvariantError,
  type Profile,
  REGULAR_BONUS_MAX_SPINS,
  type Rng,
  SeededRng,
  selectSteeredSpin,
  simulateRegularBonus,
  smallestWinMinor,
  verifyRound,
} from '@reelstream/game-domain';
import type { InstantModel } from '../instant/instant-model.js';

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
    expect(() => selectSteeredSpin({ ...base, targetLeftMinor: -1, spinNumber: 1 })).toThrow(InvariantError);
    expect(() => selectSteeredSpin({ ...base, targetLeftMinor: 100, spinNumber: 0 })).toThrow(InvariantError);
  });
});

/**
 * A wheel of equally weighted segments paying `multiplierCoins` coins on a 1-coin bet: the one draw
 * of a round is the segment index, and the win is betMinor × the segment's multiplier.
 */
function testWheel(standard: readonly number[], streamer: readonly number[] = standard): InstantModel {
  const segments = (multipliers: readonly number[]) =>
    multipliers.map((multiplierCoins) => ({ multiplierCoins, weight: 1 }));
  return {
    kind: 'instant',
    id: 'steering-test-wheel',
    name: 'Steering test wheel',
    coinsPerBet: 1,
    profiles: {
      standard: { targetRtp: 1, segments: segments(standard) },
      streamer: { targetRtp: 1, segments: segments(streamer) },
    },
  };
}

// Segment:        0  1   2   3   4   5    6
const STANDARD = [0, 3, 10, 10, 47, 48, 100];
const STREAMER = [0, 4, 10, 10, 47, 48, 100];
const wheel = testWheel(STANDARD, STREAMER);

/** Hands out the given draws in order, and fails the test if the code asks for one more. */
function scriptedRng(draws: readonly number[]): Rng & { readonly used: () => number } {
  let next = 0;
  return {
    nextInt: (maxExclusive) => {
      const value = draws[next];
      if (value === undefined) throw new Error(`asked for draw ${next + 1} of ${draws.length} scripted`);
      if (value >= maxExclusive) throw new Error(`scripted draw ${value} is not below ${maxExclusive}`);
      next++;
      return value;
    },
    used: () => next,
  };
}

function steer(input: {
  readonly targetLeftMinor: number;
  readonly draws: readonly number[];
  readonly candidatesPerSpin: number;
  readonly betMinor?: number;
  readonly profile?: Profile;
  readonly spinNumber?: number;
}) {
  return selectSteeredSpin({
    model: wheel,
    profile: input.profile ?? 'standard',
    betMinor: input.betMinor ?? 1,
    targetLeftMinor: input.targetLeftMinor,
    spinNumber: input.spinNumber ?? 1,
    rng: scriptedRng(input.draws),
    candidatesPerSpin: input.candidatesPerSpin,
  });
}

/** What a spin chose, by the segment drawn (equal wins come from different segments). */
const chosen = (spin: ReturnType<typeof selectSteeredSpin>) => ({
  winMinor: spin.outcome.winMinor,
  draws: spin.outcome.draws,
  candidatesDrawn: spin.candidatesDrawn,
  topUpMinor: spin.topUpMinor,
  completes: spin.completes,
});

describe('Regular Bonus Call outcome selection, candidate by candidate', () => {
  // Target 50 at bet 1 is beyond the endgame (20 bets), so a spin draws exactly `candidatesPerSpin`
  // rounds; the smallest win of the standard wheel is 3, so a rest of 3 or more is still playable.
  it('takes the fitting candidate that pays the most, after drawing exactly the candidates asked for', () => {
    expect(chosen(steer({ targetLeftMinor: 50, draws: [1, 2, 1], candidatesPerSpin: 3 }))).toEqual({
      winMinor: 10,
      draws: [2],
      candidatesDrawn: 3,
      topUpMinor: 0,
      completes: false,
    });
  });

  it('keeps a bigger win over a smaller one drawn after it', () => {
    expect(chosen(steer({ targetLeftMinor: 50, draws: [2, 1], candidatesPerSpin: 2 }))).toMatchObject({
      winMinor: 10,
      draws: [2],
      candidatesDrawn: 2,
    });
  });

  it('skips a candidate paying more than what is left, however much it pays', () => {
    expect(chosen(steer({ targetLeftMinor: 50, draws: [0, 6], candidatesPerSpin: 2 }))).toEqual({
      winMinor: 0,
      draws: [0],
      candidatesDrawn: 2,
      topUpMinor: 0,
      completes: false,
    });
  });

  it('keeps drawing past the candidates asked for until one fits', () => {
    expect(chosen(steer({ targetLeftMinor: 50, draws: [6, 6, 2], candidatesPerSpin: 2 }))).toMatchObject({
      winMinor: 10,
      draws: [2],
      candidatesDrawn: 3,
    });
  });

  it('stops at once on a candidate paying exactly what is left, and completes without a top-up', () => {
    expect(chosen(steer({ targetLeftMinor: 47, draws: [2, 4], candidatesPerSpin: 3 }))).toEqual({
      winMinor: 47,
      draws: [4],
      candidatesDrawn: 2,
      topUpMinor: 0,
      completes: true,
    });
  });

  it('prefers a win leaving a playable rest over a bigger win leaving less than the smallest win', () => {
    // 48 leaves 2 (below the smallest win, 3); 10 leaves 40.
    expect(chosen(steer({ targetLeftMinor: 50, draws: [5, 2], candidatesPerSpin: 2 }))).toMatchObject({
      winMinor: 10,
      draws: [2],
    });
    expect(chosen(steer({ targetLeftMinor: 50, draws: [2, 5], candidatesPerSpin: 2 }))).toMatchObject({
      winMinor: 10,
      draws: [2],
    });
  });

  it('counts a rest of exactly the smallest win as playable', () => {
    // 47 leaves 3, the smallest win: playable, and it beats both the smaller 10 and the bigger 48 (which leaves 2).
    expect(chosen(steer({ targetLeftMinor: 50, draws: [5, 4], candidatesPerSpin: 2 }))).toMatchObject({
      winMinor: 47,
      draws: [4],
    });
    expect(chosen(steer({ targetLeftMinor: 50, draws: [2, 4], candidatesPerSpin: 2 }))).toMatchObject({
      winMinor: 47,
      draws: [4],
      topUpMinor: 0,
      completes: false,
    });
  });

  it('judges what is playable by the wheel of the session profile', () => {
    // The streamer wheel's smallest win is 4, so 47 leaves less than it there and the bigger 48 is taken.
    expect(chosen(steer({ targetLeftMinor: 50, draws: [4, 5], candidatesPerSpin: 2 }))).toMatchObject({
      winMinor: 47,
      draws: [4],
    });
    expect(
      chosen(steer({ targetLeftMinor: 50, draws: [4, 5], candidatesPerSpin: 2, profile: 'streamer' })),
    ).toMatchObject({ winMinor: 48, draws: [5] });
  });

  it('between wins that both leave less than the smallest win, takes the bigger, and completes with a top-up', () => {
    // Target 49: 48 leaves 1 and 47 leaves 2, both below the smallest win (3).
    expect(chosen(steer({ targetLeftMinor: 49, draws: [5, 4], candidatesPerSpin: 2 }))).toEqual({
      winMinor: 48,
      draws: [5],
      candidatesDrawn: 2,
      topUpMinor: 1,
      completes: true,
    });
  });

  it('takes a losing result only when nothing else fits: a win leaving too little beats it', () => {
    expect(chosen(steer({ targetLeftMinor: 50, draws: [0, 5], candidatesPerSpin: 2 }))).toEqual({
      winMinor: 48,
      draws: [5],
      candidatesDrawn: 2,
      topUpMinor: 2,
      completes: true,
    });
  });

  it('keeps the first drawn of equal wins', () => {
    expect(chosen(steer({ targetLeftMinor: 50, draws: [2, 3], candidatesPerSpin: 2 }))).toMatchObject({
      winMinor: 10,
      draws: [2],
    });
    expect(chosen(steer({ targetLeftMinor: 50, draws: [3, 2], candidatesPerSpin: 2 }))).toMatchObject({
      winMinor: 10,
      draws: [3],
    });
  });

  it('completes with a top-up on the last allowed spin', () => {
    expect(
      chosen(steer({ targetLeftMinor: 50, draws: [2, 1], candidatesPerSpin: 2, spinNumber: REGULAR_BONUS_MAX_SPINS })),
    ).toEqual({ winMinor: 10, draws: [2], candidatesDrawn: 2, topUpMinor: 40, completes: true });
  });

  // At bet 2 the endgame starts at 20 bets = 40 minor units left.
  it('draws eight times the candidates when what is left is at most 20 bets', () => {
    const spin = steer({
      targetLeftMinor: 40,
      draws: Array.from({ length: 16 }, () => 1),
      candidatesPerSpin: 2,
      betMinor: 2,
    });
    expect(chosen(spin)).toEqual({ winMinor: 6, draws: [1], candidatesDrawn: 16, topUpMinor: 0, completes: false });
  });

  it('draws only the candidates asked for when what is left is above 20 bets', () => {
    const spin = steer({ targetLeftMinor: 41, draws: [1, 1], candidatesPerSpin: 2, betMinor: 2 });
    expect(chosen(spin)).toEqual({ winMinor: 6, draws: [1], candidatesDrawn: 2, topUpMinor: 0, completes: false });
  });

  it('gives up with a SteeringError after 10,000 draws when every result pays more than what is left', () => {
    const rng = scriptedRng(Array.from({ length: 10_000 }, (_, index) => index % 2));
    let thrown: unknown;
    try {
      selectSteeredSpin({
        model: testWheel([3, 10]),
        profile: 'standard',
        betMinor: 1,
        targetLeftMinor: 2,
        spinNumber: 1,
        rng,
        candidatesPerSpin: 2,
      });
    } catch (error) {
      thrown = error;
    }
    // Retriable: the player's next spin draws afresh.
    expect(thrown).toMatchObject({ name: 'SteeringError', code: 'INTERNAL', retriable: true });
    expect((thrown as Error).message).toBe('10000 rounds of steering-test-wheel all paid more than the 2 left');
    expect(rng.used()).toBe(10_000);
  });

  it('names the bad target or spin number in the refusal', () => {
    const base = { model: wheel, profile: 'standard' as const, betMinor: 1, rng: scriptedRng([]) };
    expect(() => selectSteeredSpin({ ...base, targetLeftMinor: -1, spinNumber: 1 })).toThrow(
      new InvariantError('targetLeftMinor must be a non-negative integer, got -1'),
    );
    expect(() => selectSteeredSpin({ ...base, targetLeftMinor: 1.5, spinNumber: 1 })).toThrow(
      new InvariantError('targetLeftMinor must be a non-negative integer, got 1.5'),
    );
    expect(() => selectSteeredSpin({ ...base, targetLeftMinor: 100, spinNumber: 0 })).toThrow(
      new InvariantError('spinNumber must be a positive integer, got 0'),
    );
    expect(() => selectSteeredSpin({ ...base, targetLeftMinor: 100, spinNumber: 2.5 })).toThrow(
      new InvariantError('spinNumber must be a positive integer, got 2.5'),
    );
  });
});

describe('smallestWinMinor', () => {
  it('is the smallest positive pay of the profile wheel at the bet, ignoring losing segments', () => {
    expect(smallestWinMinor(wheel, 'standard', 1)).toBe(3);
    expect(smallestWinMinor(wheel, 'standard', 2)).toBe(6);
    expect(smallestWinMinor(wheel, 'streamer', 2)).toBe(8);
  });

  it('is at least one minor unit', () => {
    expect(smallestWinMinor({ ...testWheel([0, 3, 7]), coinsPerBet: 10 }, 'standard', 1)).toBe(1);
  });
});

describe('a Regular Bonus Call played to completion', () => {
  it('a call of nothing never completes: it stops one spin past the bound, so the caller sees the broken rule', () => {
    // Each spin hits the 0 left exactly with a losing result, which completes nothing.
    const played = simulateRegularBonus({
      model: wheel,
      profile: 'standard',
      betMinor: 1,
      callAmountMinor: 0,
      rng: scriptedRng(Array.from({ length: REGULAR_BONUS_MAX_SPINS + 1 }, () => 0)),
    });
    expect(played.spins).toHaveLength(REGULAR_BONUS_MAX_SPINS + 1);
    expect(played.spins.every((spin) => !spin.completes && spin.deliveredMinor === 0)).toBe(true);
    expect(played).toMatchObject({ deliveredMinor: 0, topUpMinor: 0 });
  });
});
