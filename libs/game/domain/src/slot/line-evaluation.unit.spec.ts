import { describe, expect, it } from '@jest/globals';
import { evaluateLine, type LineRules } from './line-evaluation.js';

// Symbols: 0 wild, 1 scatter, 2 A, 3 B. pays[symbol][count] in coins, five reels.
const W = 0;
const S = 1;
const A = 2;
const B = 3;
const rules: LineRules = {
  wild: W,
  scatter: S,
  pays: [
    [0, 0, 0, 10, 50, 500], // wild
    [0, 0, 0, 0, 0, 0], // scatter: never on a line
    [0, 0, 2, 5, 20, 100], // A pays from two
    [0, 0, 0, 3, 10, 50], // B pays from three
  ],
};
const line = (...symbols: number[]) => evaluateLine(symbols, rules);

describe('one payline, left to right', () => {
  it('pays the run of the first symbol by its length, and nothing for a run too short', () => {
    expect(line(A, A, A, B, B)).toEqual({ symbol: A, count: 3, coins: 5 });
    expect(line(A, A, B, A, A)).toEqual({ symbol: A, count: 2, coins: 2 });
    expect(line(B, B, A, B, B)).toBeNull(); // B × 2 pays nothing
    expect(line(B, A, A, A, A)).toBeNull(); // the run starts on the first reel
    expect(line(A, A, A, A, A)).toEqual({ symbol: A, count: 5, coins: 100 });
  });

  it('lets a wild stand in for the symbol anywhere in the run', () => {
    expect(line(A, W, A, W, B)).toEqual({ symbol: A, count: 4, coins: 20 });
    expect(line(B, W, W, W, W)).toEqual({ symbol: B, count: 5, coins: 50 });
  });

  it('pays leading wilds as wilds when that pays more, as the symbol when it pays as much or more', () => {
    expect(line(W, W, W, B, A)).toEqual({ symbol: B, count: 4, coins: 10 }); // B × 4 = 10 ties W × 3: the symbol
    expect(line(W, W, W, A, B)).toEqual({ symbol: A, count: 4, coins: 20 }); // A × 4 = 20 beats W × 3 = 10
    expect(line(W, W, W, W, B)).toEqual({ symbol: B, count: 5, coins: 50 }); // B × 5 = 50 ties W × 4
    expect(line(W, W, W, W, A)).toEqual({ symbol: A, count: 5, coins: 100 });
    expect(line(W, W, W, B, B)).toEqual({ symbol: B, count: 5, coins: 50 });
    expect(line(W, W, W, W, S)).toEqual({ symbol: W, count: 4, coins: 50 }); // the scatter: wilds only
    expect(line(W, B, A, A, A)).toBeNull(); // W B pays nothing, W × 1 nothing
    expect(line(W, W, W, W, W)).toEqual({ symbol: W, count: 5, coins: 500 });
    expect(line(W, W, S, A, A)).toBeNull(); // W × 2 pays nothing, and the scatter starts no run
    expect(line(W, W, W, S, A)).toEqual({ symbol: W, count: 3, coins: 10 });
  });

  it('never counts the scatter in a run: it ends one and starts none', () => {
    expect(line(S, S, S, S, S)).toBeNull();
    // not even when its row of the table says otherwise (a model's validation refuses such line pays)
    const scatterInTable: LineRules = {
      ...rules,
      pays: rules.pays.map((row, symbol) => (symbol === S ? [0, 1, 1, 1, 1, 1] : row)),
    };
    expect(evaluateLine([S, S, S, A, A], scatterInTable)).toBeNull();
    expect(line(A, A, S, A, A)).toEqual({ symbol: A, count: 2, coins: 2 });
    expect(line(S, A, A, A, A)).toBeNull();
  });

  it('pays nothing on an empty line, and reads a pay missing from the table as none', () => {
    expect(line()).toBeNull();
    expect(evaluateLine([A, A, A], { wild: W, scatter: S, pays: [[0, 0, 0, 10]] })).toBeNull();
    expect(evaluateLine([W, W, W], { wild: W, scatter: S, pays: [[0, 0, 0, 10]] })).toEqual({
      symbol: W,
      count: 3,
      coins: 10,
    });
  });
});
