import { describe, expect, it } from '@jest/globals';
import { compileSlot, ModelError, playRound, createSeededRng, type SlotModel } from '@reelstream/game-domain';
import { columnsModel } from '../../test/fixtures.js';
import { validateSlotModel } from './validate-slot-model.js';

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

const stripsOf = (model: SlotModel, strip: string): SlotModel['profiles'] => ({
  standard: { ...model.profiles.standard, reels: Array.from({ length: 5 }, () => strip) },
  streamer: { ...model.profiles.streamer, reels: Array.from({ length: 5 }, () => strip) },
});

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

  it('names the model and the exact problem of every rule, at each rule’s edge', () => {
    const refusal = (problem: string) => `model "valid": ${problem}`;
    const withSymbols =
      (count: number) =>
      (m: SlotModel): SlotModel => ({
        ...m,
        symbols: [
          ...m.symbols,
          ...Array.from({ length: count - m.symbols.length }, (_, i) => ({
            code: String.fromCharCode(0x100 + i),
            name: `extra ${i}`,
            role: 'regular' as const,
          })),
        ],
        // one reel, so that the line table stays small however many symbols there are
        paylines: [[0]],
        linePays: {},
        scatterPays: {},
        bonus: { freeGames: {}, multiplier: 1 },
        profiles: { standard: { targetRtp: 0.9, reels: ['ABC'] }, streamer: { targetRtp: 1.1, reels: ['ABC'] } },
      });
    expect(problem(withSymbols(64))).toBe('accepted');
    expect(problem(withSymbols(65))).toBe(refusal('at most 64 symbols'));
    expect(problem((m) => ({ ...m, rows: 16, profiles: stripsOf(m, 'ABCABCABCABCABCA') }))).toBe('accepted');
    for (const rows of [0, 17, 1.5, -1])
      expect(problem((m) => ({ ...m, rows }))).toBe(refusal('rows must be an integer from 1 to 16'));
    for (const coinsPerBet of [0, -4, 2.5])
      expect(problem((m) => ({ ...m, coinsPerBet }))).toBe(refusal('coinsPerBet must be a positive integer'));
    expect(problem((m) => ({ ...m, coinsPerBet: 1 }))).toBe('accepted');
    expect(
      problem((m) => ({ ...m, profiles: { standard: { targetRtp: 0.9, reels: [] }, streamer: m.profiles.streamer } })),
    ).toBe(refusal('at least one reel is required'));
    expect(problem((m) => ({ ...m, paylines: [] }))).toBe(refusal('at least one payline is required'));
    expect(
      problem((m) => ({
        ...m,
        paylines: [
          [0, 0, 0, 0, 0],
          [0, 0, 0, 0],
        ],
      })),
    ).toBe(refusal('payline 1 must name one row per reel (5)'));
    for (const row of [-1, 3, 0.5])
      expect(problem((m) => ({ ...m, paylines: [[0, 0, row, 0, 0]] }))).toBe(
        refusal('payline 0 has a row outside 0..2'),
      );
    expect(
      problem((m) => ({
        ...m,
        paylines: [
          [2, 2, 2, 2, 2],
          [0, 0, 0, 0, 0],
        ],
      })),
    ).toBe('accepted');
    expect(problem((m) => ({ ...m, linePays: { ...m.linePays, A: { 0: 5 } } }))).toBe(
      refusal('line pays of A: count 0 is outside 1..5'),
    );
    expect(problem((m) => ({ ...m, linePays: { ...m.linePays, A: { 1: 5, 5: 7 } } }))).toBe('accepted');
    expect(problem((m) => ({ ...m, linePays: { ...m.linePays, B: { 3: 0 } } }))).toBe(
      refusal('line pays of B: 3 must be a positive integer, got 0'),
    );
    expect(problem((m) => ({ ...m, scatterPays: { 16: 5 } }))).toBe(refusal('scatter pays: count 16 is outside 1..15'));
    expect(problem((m) => ({ ...m, scatterPays: { 15: 5, 1: 1 } }))).toBe('accepted');
    expect(problem((m) => ({ ...m, scatterPays: { 3: -8 } }))).toBe(
      refusal('scatter pays: 3 must be a positive integer, got -8'),
    );
    expect(problem((m) => ({ ...m, bonus: { ...m.bonus, freeGames: { 16: 2 } } }))).toBe(
      refusal('bonus free games: count 16 is outside 1..15'),
    );
    expect(problem((m) => ({ ...m, bonus: { ...m.bonus, freeGames: { 3: 1.5 } } }))).toBe(
      refusal('bonus free games: 3 must be a positive integer, got 1.5'),
    );
    expect(problem((m) => ({ ...m, bonus: { ...m.bonus, multiplier: 2.5 } }))).toBe(
      refusal('bonus multiplier must be a positive integer'),
    );
    expect(problem((m) => ({ ...m, bonus: { ...m.bonus, multiplier: 1 } }))).toBe('accepted');
    expect(
      problem((m) => ({ ...m, profiles: { ...m.profiles, streamer: { ...m.profiles.streamer, targetRtp: 0 } } })),
    ).toBe(refusal('streamer target RTP must be positive'));
    expect(
      problem((m) => ({
        ...m,
        profiles: { ...m.profiles, standard: { ...m.profiles.standard, targetRtp: Number.NaN } },
      })),
    ).toBe(refusal('standard target RTP must be positive'));
    expect(problem((m) => withStrips(m, ['ABC', 'ABC', 'ABC', 'ABC', 'AB']))).toBe(
      refusal('standard reel 4 is shorter than the window'),
    );
  });

  it('takes a line table of up to 2^22 entries (symbols ^ reels), and no larger', () => {
    // checked without compiling: 4^11 entries is the largest table a model may ask for
    const reels = (count: number, strip: string) => Array.from({ length: count }, () => strip);
    const fourSymbols = (m: SlotModel, reelCount: number): SlotModel => ({
      ...m,
      symbols: m.symbols.filter((symbol) => symbol.code !== 'C'),
      paylines: [reels(reelCount, 'x').map(() => 0)],
      linePays: { A: { 3: 5 } },
      scatterPays: {},
      bonus: { freeGames: {}, multiplier: 1 },
      profiles: {
        standard: { targetRtp: 0.9, reels: reels(reelCount, 'ABW') },
        streamer: { targetRtp: 1.1, reels: reels(reelCount, 'ABW') },
      },
    });
    expect(() => validateSlotModel(fourSymbols(valid, 11))).not.toThrow();
    expect(() => validateSlotModel(fourSymbols(valid, 12))).toThrow(
      'model "valid": too many symbols and reels for the line table',
    );
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
