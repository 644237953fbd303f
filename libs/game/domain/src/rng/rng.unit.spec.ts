import { describe, expect, it } from '@jest/globals';
import {
  assertDrawBound,
  createSeededRng,
  RecordingRng,
  ReplayError,
  ReplayRng,
  RngRangeError,
  SeededRng,
} from '@reelstream/game-domain';

/** A SeededRng whose 32-bit words are scripted, to watch the reduction to a bound. */
class ScriptedWords extends SeededRng {
  consumed = 0;
  constructor(private readonly words: number[]) {
    super('scripted');
  }
  override nextUint32(): number {
    const word = this.words[this.consumed++];
    if (word === undefined) throw new Error('script exhausted');
    return word;
  }
}

describe('seeded RNG (sfc32)', () => {
  it('repeats the same sequence for the same seed and another one for another seed', () => {
    const draw = (seed: string | number) => {
      const rng = createSeededRng(seed);
      return Array.from({ length: 20 }, () => rng.nextInt(1000));
    };
    expect(draw('alpha')).toEqual(draw('alpha'));
    expect(draw(42)).toEqual(draw('42'));
    expect(draw('alpha')).not.toEqual(draw('beta'));
  });

  it('stays within [0, bound) for small, large and the largest bounds', () => {
    const rng = createSeededRng('range');
    const outside: string[] = [];
    for (const bound of [
      1,
      2,
      3,
      7,
      33,
      1000,
      (1 << 21) - 1,
      1 << 21,
      (1 << 21) + 1,
      2 ** 31 + 11,
      2 ** 32 - 1,
      2 ** 32,
    ]) {
      for (let i = 0; i < 5000; i++) {
        const value = rng.nextInt(bound);
        if (!Number.isInteger(value) || value < 0 || value >= bound) outside.push(`${value} for bound ${bound}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('refuses bounds that are not integers in [1, 2^32]', () => {
    const rng = createSeededRng('bounds');
    for (const bound of [0, -1, 1.5, Number.NaN, 2 ** 32 + 1, Infinity])
      expect(() => rng.nextInt(bound)).toThrow(RngRangeError);
    const refused = (() => {
      try {
        assertDrawBound(0.5);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(RngRangeError);
    expect(refused).toMatchObject({
      name: 'RngRangeError',
      maxExclusive: 0.5,
      message: 'nextInt bound must be an integer in [1, 2^32], got 0.5',
    });
    for (const bound of [1, 2, 2 ** 32]) expect(() => assertDrawBound(bound)).not.toThrow();
  });

  it('draws again instead of mapping a word from the biased zone (multiply-and-reject)', () => {
    // bound 3: 2^32 mod 3 = 1, so only the word whose product with 3 is ≡ 0 mod 2^32 (word 0) is biased
    const small = new ScriptedWords([0, 2 ** 32 - 1]);
    expect(small.nextInt(3)).toBe(2);
    expect(small.consumed).toBe(2);
    expect(new ScriptedWords([2 ** 31]).nextInt(3)).toBe(1); // 3 · 2^31 / 2^32 = 1.5
    // above 2^21: plain rejection at the largest multiple of the bound below 2^32
    // bound 2^32 - 1: the largest multiple below 2^32 is the bound itself, so the word 2^32 - 1 is drawn again
    const large = new ScriptedWords([2 ** 32 - 1, 2 ** 32 - 2, 12]);
    expect(large.nextInt(2 ** 32 - 1)).toBe(2 ** 32 - 2);
    expect(large.consumed).toBe(2);
    expect(large.nextInt(2 ** 31 + 1)).toBe(12);
  });

  it('keeps every seed to the same words from release to release (simulations and benchmarks re-run from their seeds)', () => {
    const golden = createSeededRng('golden');
    expect(Array.from({ length: 6 }, () => golden.nextUint32())).toEqual([
      2459897739, 2291529163, 2283349543, 3976320428, 1584326547, 2268902345,
    ]);
    const numeric = createSeededRng(42);
    expect(Array.from({ length: 3 }, () => numeric.nextUint32())).toEqual([2258495261, 801819658, 1739561921]);
  });

  it('draws again for every word in the biased zone, however many come in a row, and keeps the first word at its edge', () => {
    // bound 2^21 − 1: 2^32 mod bound = 2048, so a word whose product leaves a fraction below 2048 is drawn again
    const bound = 2 ** 21 - 1;
    const twice = new ScriptedWords([2_095_105, 4_192_258, 2 ** 31]); // fractions 2047 and 2046, then 2^31
    expect(twice.nextInt(bound)).toBe(1_048_575);
    expect(twice.consumed).toBe(3);
    // bound 3: 2^32 mod 3 = 1; the word 0xAAAAAAAB leaves a fraction of exactly 1, which is not biased
    const edge = new ScriptedWords([0xaaaaaaab, 0]);
    expect(edge.nextInt(3)).toBe(2);
    expect(edge.consumed).toBe(1);
  });

  it('takes the high bits of the product up to a bound of 2^21 and the remainder above it', () => {
    expect(new ScriptedWords([12]).nextInt(2 ** 21)).toBe(0); // 12 · 2^21 / 2^32
    expect(new ScriptedWords([2 ** 31]).nextInt(2 ** 21)).toBe(2 ** 20);
    expect(new ScriptedWords([12]).nextInt(2 ** 22 + 1)).toBe(12);
    expect(new ScriptedWords([2 ** 31]).nextInt(2 ** 30 + 3)).toBe(2 ** 31 % (2 ** 30 + 3));
  });

  it('is uniform: a chi-square test over 700,000 draws of a die with 7 faces', () => {
    const rng = createSeededRng('chi-square');
    const counts = new Array<number>(7).fill(0);
    const draws = 700_000;
    for (let i = 0; i < draws; i++) {
      const face = rng.nextInt(7);
      counts[face] = (counts[face] ?? 0) + 1;
    }
    const expected = draws / 7;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(22.46); // 6 degrees of freedom, p = 0.001
  });
});

describe('recorded draws', () => {
  it('records every draw in order and replays them back', () => {
    const recording = new RecordingRng(createSeededRng('record'));
    const values = [recording.nextInt(10), recording.nextInt(500), recording.nextInt(2)];
    expect(recording.draws).toEqual(values);

    const replay = new ReplayRng(recording.draws);
    expect([replay.nextInt(10), replay.nextInt(500), replay.nextInt(2)]).toEqual(values);
    expect(() => replay.assertFullyConsumed()).not.toThrow();
  });

  it('refuses a draw the engine could not have received, a missing draw and a left-over draw', () => {
    const codeOf = (action: () => unknown) => {
      try {
        action();
      } catch (error) {
        if (error instanceof ReplayError) return error.reason;
      }
      return 'no ReplayError';
    };
    expect(codeOf(() => new ReplayRng([10]).nextInt(10))).toBe('DRAW_OUT_OF_RANGE');
    expect(codeOf(() => new ReplayRng([-1]).nextInt(10))).toBe('DRAW_OUT_OF_RANGE');
    expect(codeOf(() => new ReplayRng([1.5]).nextInt(10))).toBe('DRAW_OUT_OF_RANGE');
    expect(codeOf(() => new ReplayRng([]).nextInt(10))).toBe('DRAWS_EXHAUSTED');
    const leftOver = new ReplayRng([1, 2]);
    leftOver.nextInt(10);
    expect(codeOf(() => leftOver.assertFullyConsumed())).toBe('DRAWS_LEFT_OVER');
  });

  it('says in each refusal which draw it is and what the record holds', () => {
    expect(() => new ReplayRng([4, 12]).nextInt(10)).not.toThrow();
    const outOfRange = new ReplayRng([4, 12]);
    outOfRange.nextInt(10);
    expect(() => outOfRange.nextInt(10)).toThrow(
      new ReplayError('DRAW_OUT_OF_RANGE', 'draw #1 is 12, outside [0, 10)'),
    );
    expect(() => new ReplayRng([3]).assertFullyConsumed()).toThrow('the round used 0 draws but the record holds 1');
    const exhausted = new ReplayRng([3]);
    exhausted.nextInt(5);
    expect(() => exhausted.nextInt(5)).toThrow('the round asks for draw #1 but the record holds only 1');
    expect(new ReplayError('DRAWS_EXHAUSTED', 'x').name).toBe('ReplayError');
  });
});
