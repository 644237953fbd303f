import { describe, expect, it } from '@jest/globals';
import { compileSlot, replayRound, type SlotModel } from '@reelstream/game-domain';
import { columnsModel } from '../../test/fixtures.js';

// W S A B C are symbols 0..4; scatterPays { 3: 8, 4: 40 }, freeGames { 3: 2, 5: 4 }, four paylines.
const model = columnsModel(
  [
    ['CAB', 'SAW'],
    ['CWB', 'AAS'],
    ['BAC', 'SSA'],
    ['BAA', 'BBB'],
    ['BCA', 'CCC'],
  ],
  'compiled',
);

/**
 * A copy of `model` compiled afresh: compilation is cached per model object, and a test that only read
 * what an earlier test compiled would not count, for mutation testing, as a test of the compiler.
 */
const fresh = (changes: Partial<SlotModel> = {}): SlotModel => ({ ...model, ...changes });

describe('a slot compiled to flat tables', () => {
  it('lays the strips end to end, with each reel’s offset, length and symbols', () => {
    const slot = compileSlot(fresh(), 'standard');
    expect({ reelCount: slot.reelCount, rows: slot.rows, symbolCount: slot.symbolCount }).toEqual({
      reelCount: 5,
      rows: 3,
      symbolCount: 5,
    });
    expect({ wild: slot.wild, scatter: slot.scatter, symbolCodes: slot.symbolCodes }).toEqual({
      wild: 0,
      scatter: 1,
      symbolCodes: ['W', 'S', 'A', 'B', 'C'],
    });
    expect(Array.from(slot.stripLength)).toEqual([6, 6, 6, 6, 6]);
    expect(Array.from(slot.stripOffset)).toEqual([0, 6, 12, 18, 24]);
    expect(Array.from(slot.stripSymbols.slice(0, 6))).toEqual([4, 2, 3, 1, 2, 0]); // C A B S A W
    expect(Array.from(slot.stripSymbols.slice(24))).toEqual([3, 4, 2, 4, 4, 4]); // B C A C C C
    expect(Array.from(slot.lineRows)).toEqual([1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 0, 1, 2, 1, 0]);
    expect(slot.lineCount).toBe(4);
    expect({ bonusMultiplier: slot.bonusMultiplier, coinsPerBet: slot.coinsPerBet }).toEqual({
      bonusMultiplier: 3,
      coinsPerBet: 4,
    });
  });

  it('shows a window that wraps around the end of its strip, and counts the scatters in it', () => {
    const slot = compileSlot(fresh(), 'standard');
    const windowAt = (reel: number, stop: number) => {
      const base = ((slot.stripOffset[reel] ?? 0) + stop) * slot.rows;
      return Array.from(slot.windowSymbols.slice(base, base + slot.rows), (symbol) => slot.symbolCodes[symbol]).join(
        '',
      );
    };
    expect(windowAt(0, 0)).toBe('CAB');
    expect(windowAt(0, 4)).toBe('AWC'); // the last two positions, then the first
    expect(windowAt(0, 5)).toBe('WCA');
    expect(windowAt(2, 3)).toBe('SSA');
    const scattersAt = (reel: number, stop: number) => slot.windowScatters[(slot.stripOffset[reel] ?? 0) + stop];
    expect([0, 1, 2, 3, 4, 5].map((stop) => scattersAt(2, stop))).toEqual([0, 1, 2, 2, 1, 0]); // B A C S S A, wrapping
    expect([0, 1, 2, 3, 4, 5].map((stop) => scattersAt(1, stop))).toEqual([0, 0, 0, 1, 1, 1]); // C W B A A S, wrapping

    // A round on those stops reads the same windows.
    const outcome = replayRound(
      { modelId: model.id, profile: 'standard', betMinor: 100, draws: [4, 0, 3, 0, 0] },
      model,
    );
    if (outcome.kind !== 'slot') throw new Error('expected a slot outcome');
    expect(outcome.base.window).toEqual(['AWC', 'CWB', 'SSA', 'BAA', 'BCA']);
    expect(outcome.base.scatterCount).toBe(2);
  });

  it('pays k scatters, and awards k scatters’ games, as the largest listed count at or below k, up to every cell', () => {
    const slot = compileSlot(fresh(), 'standard');
    // 5 reels × 3 rows: 0 .. 15 scatters
    expect(Array.from(slot.scatterPayCoins)).toEqual([0, 0, 0, 8, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40]);
    expect(Array.from(slot.freeGames)).toEqual([0, 0, 0, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
    const fromOne: SlotModel = {
      ...model,
      id: 'compiled-from-one',
      scatterPays: { 1: 1, 15: 9 },
      bonus: { freeGames: { 15: 1 }, multiplier: 1 },
    };
    const edges = compileSlot(fromOne, 'standard');
    expect(Array.from(edges.scatterPayCoins)).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9]);
    expect(Array.from(edges.freeGames)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('finds the wild and the scatter wherever the model lists them', () => {
    const reordered = fresh({ symbols: [...model.symbols].reverse() }); // C B A S W
    const slot = compileSlot(reordered, 'standard');
    expect({ wild: slot.wild, scatter: slot.scatter }).toEqual({ wild: 4, scatter: 3 });
    expect(slot.symbolCodes).toEqual(['C', 'B', 'A', 'S', 'W']);
    expect(Array.from(slot.stripSymbols.slice(0, 6))).toEqual([0, 2, 1, 3, 2, 4]); // C A B S A W
    const key = (codes: string) => [...codes].reduce((sum, code) => sum * 5 + 'CBASW'.indexOf(code), 0);
    expect(slot.linePayCoins[key('WWWWW')]).toBe(500);
    expect(slot.linePayCoins[key('AWAAC')]).toBe(20);
  });

  it('tables every line once per model: both profiles share it, and a key pays what evaluating its line pays', () => {
    const own = fresh();
    const standard = compileSlot(own, 'standard');
    const streamer = compileSlot(own, 'streamer');
    expect(streamer).not.toBe(standard);
    expect(streamer.linePayCoins).toBe(standard.linePayCoins);
    expect(standard.linePayCoins).toHaveLength(5 ** 5);
    const key = (codes: string) => [...codes].reduce((sum, code) => sum * 5 + 'WSABC'.indexOf(code), 0);
    const entry = (codes: string) => ({
      coins: standard.linePayCoins[key(codes)],
      symbol: standard.linePaySymbol[key(codes)],
      count: standard.linePayCount[key(codes)],
    });
    expect(entry('AWAAC')).toEqual({ coins: 20, symbol: 2, count: 4 });
    expect(entry('WWWWW')).toEqual({ coins: 500, symbol: 0, count: 5 });
    expect(entry('CCBBB')).toEqual({ coins: 1, symbol: 4, count: 2 });
    expect(entry('BBCCC')).toEqual({ coins: 0, symbol: -1, count: 0 });
    expect(entry('SSSSS')).toEqual({ coins: 0, symbol: -1, count: 0 });
    expect(entry('CCCCC')).toEqual({ coins: 10, symbol: 4, count: 5 }); // the last key of the table
    expect(standard.lineRules.pays[4]).toEqual([0, 0, 1, 2, 4, 10]);
    expect(standard.lineRules.pays[1]).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
