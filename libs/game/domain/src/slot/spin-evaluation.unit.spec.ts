import { describe, expect, it } from '@jest/globals';
import { compileSlot } from '@reelstream/game-domain';
import { column, columnsModel } from '../../test/fixtures.js';
import { computeLineKeys, lineWinCoins, visibleScatters } from './spin-evaluation.js';

// Four lines (middle, top, bottom, V) over five reels of two columns each; symbols W S A B C are 0..4.
const slot = compileSlot(
  columnsModel(
    [
      ['CAB', 'SAA'],
      ['CWB', 'AAS'],
      ['BAC', 'AAA'],
      ['BAA', 'BBB'],
      ['BCA', 'CCC'],
    ],
    'spin-evaluation-test',
  ),
  'standard',
);
const stops = (...columns: number[]) => Int32Array.from(columns, column);
/** A line's key: its symbols as the digits of a base-5 number, reel 0 first. */
const key = (...codes: string[]) => codes.reduce((sum, code) => sum * 5 + 'WSABC'.indexOf(code), 0);

describe('the shared spin evaluation on hand-set stops', () => {
  it('computes every payline’s key into the first lineCount entries and leaves the rest of the array alone', () => {
    const keys = new Int32Array(slot.lineCount + 2).fill(-1);
    computeLineKeys(slot, stops(0, 0, 0, 0, 0), keys);
    expect(Array.from(keys)).toEqual([
      key('A', 'W', 'A', 'A', 'C'),
      key('C', 'C', 'B', 'B', 'B'),
      key('B', 'B', 'C', 'A', 'A'),
      key('C', 'W', 'C', 'A', 'B'),
      -1,
      -1,
    ]);
    computeLineKeys(slot, stops(1, 1, 1, 1, 1), keys);
    expect(Array.from(keys).slice(0, 4)).toEqual([
      key('A', 'A', 'A', 'B', 'C'),
      key('S', 'A', 'A', 'B', 'C'),
      key('A', 'S', 'A', 'B', 'C'),
      key('S', 'A', 'A', 'B', 'C'),
    ]);
  });

  it('sums the line pays of those keys, and counts the scatters in view', () => {
    const keys = new Int32Array(slot.lineCount);
    computeLineKeys(slot, stops(0, 0, 0, 0, 0), keys);
    expect(lineWinCoins(slot, keys)).toBe(20 + 1 + 2); // A × 4, C × 2, C × 3 on the V
    expect(visibleScatters(slot, stops(0, 0, 0, 0, 0))).toBe(0);
    computeLineKeys(slot, stops(1, 1, 1, 1, 1), keys);
    expect(lineWinCoins(slot, keys)).toBe(5); // A A A B C on the middle; the scatter breaks the others
    expect(visibleScatters(slot, stops(1, 1, 1, 1, 1))).toBe(2);
    expect(visibleScatters(slot, stops(1, 0, 0, 0, 0))).toBe(1);
  });
});
