import { describe, expect, it } from '@jest/globals';
import { compileSlot, ModelError, playRound, createSeededRng, type SlotModel } from '@reelstream/game-domain';
import { columnsModel } from '../../test/fixtures.js';

const valid = columnsModel([['ABC'], ['ABC'], ['ABC'], ['ABC'], ['ABC']], 'valid');

function problem(change: (model: SlotModel) => SlotModel): string {
  try {
    compileSlot(change(valid), 'standard');
  } catch (error) {
    if (error instanceof ModelError) return error.message;
    throw error;
  }
  return 'accepted';
}

const withStrips = (model: SlotModel, reels: string[]): SlotModel => ({
  ...model,
  profiles: { ...model.profiles, standard: { targetRtp: 0.9, reels } },
});

describe('slot model validation', () => {
  it('accepts a well-formed model', () => {
    expect(problem((model) => model)).toBe('accepted');
  });

  it('requires exactly one wild and one scatter, with unique single-character codes', () => {
    expect(
      problem((m) => ({ ...m, symbols: m.symbols.map((s) => (s.code === 'A' ? { ...s, role: 'wild' as const } : s)) })),
    ).toMatch(/exactly one wild/);
    expect(problem((m) => ({ ...m, symbols: m.symbols.filter((s) => s.role !== 'scatter') }))).toMatch(
      /exactly one scatter/,
    );
    expect(
      problem((m) => ({ ...m, symbols: [...m.symbols, { code: 'A', name: 'Again', role: 'regular' as const }] })),
    ).toMatch(/unique/);
    expect(
      problem((m) => ({ ...m, symbols: [...m.symbols, { code: 'AB', name: 'Long', role: 'regular' as const }] })),
    ).toMatch(/single characters/);
  });

  it('rejects paylines that do not fit the window, and line pays for the scatter or unknown symbols', () => {
    expect(problem((m) => ({ ...m, paylines: [[1, 1, 1, 1]] }))).toMatch(/payline 0 must name one row per reel/);
    expect(problem((m) => ({ ...m, paylines: [[0, 1, 3, 1, 0]] }))).toMatch(/payline 0 has a row outside 0..2/);
    expect(problem((m) => ({ ...m, linePays: { ...m.linePays, S: { 3: 5 } } }))).toMatch(
      /the scatter has no line pays/,
    );
    expect(problem((m) => ({ ...m, linePays: { ...m.linePays, Z: { 3: 5 } } }))).toMatch(/unknown symbol "Z"/);
    expect(problem((m) => ({ ...m, linePays: { ...m.linePays, A: { 6: 5 } } }))).toMatch(/count 6 is outside 1..5/);
    expect(problem((m) => ({ ...m, linePays: { ...m.linePays, A: { 3: 2.5 } } }))).toMatch(
      /must be a positive integer/,
    );
  });

  it('rejects strips with unknown symbols, shorter than the window or missing a reel', () => {
    expect(problem((m) => withStrips(m, ['ABC', 'ABC', 'ABX', 'ABC', 'ABC']))).toMatch(
      /reel 2 holds unknown symbol "X"/,
    );
    expect(problem((m) => withStrips(m, ['ABC', 'AB', 'ABC', 'ABC', 'ABC']))).toMatch(
      /reel 1 is shorter than the window/,
    );
    const fourReelStreamer = (m: SlotModel): SlotModel => ({
      ...m,
      profiles: { ...m.profiles, streamer: { targetRtp: 1.1, reels: ['ABC', 'ABC', 'ABC', 'ABC'] } },
    });
    expect(problem(fourReelStreamer)).toMatch(/streamer profile must have 5 reels/);
  });

  it('rejects a window taller than 16 rows and a line table too large to precompute', () => {
    expect(problem((m) => ({ ...m, rows: 17 }))).toMatch(/rows must be an integer from 1 to 16/);
    const many = Array.from({ length: 30 }, (_, i) => ({
      code: String.fromCharCode(97 + i),
      name: `s${i}`,
      role: 'regular' as const,
    }));
    expect(problem((m) => ({ ...m, symbols: [...m.symbols, ...many] }))).toMatch(/too many symbols and reels/);
  });

  it('rejects a bonus multiplier or coin size that is not a positive integer', () => {
    expect(problem((m) => ({ ...m, bonus: { ...m.bonus, multiplier: 0 } }))).toMatch(/bonus multiplier/);
    expect(problem((m) => ({ ...m, coinsPerBet: 2.5 }))).toMatch(/coinsPerBet/);
  });

  it('never plays a round on an invalid model', () => {
    const invalid = withStrips(valid, ['ABC', 'ABC', 'ABX', 'ABC', 'ABC']);
    expect(() =>
      playRound({
        model: { ...invalid, id: 'invalid-play' },
        profile: 'standard',
        betMinor: 100,
        rng: createSeededRng(1),
      }),
    ).toThrow(ModelError);
  });
});
