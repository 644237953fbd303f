import { describe, expect, it } from '@jest/globals';
import {
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
        if (error instanceof ReplayError) return error.code;
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
});
