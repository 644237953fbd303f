import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  InvalidPositionError,
  compareEsdbPositions,
  comparePositions,
  decodePosition,
  encodePosition,
  isPast,
  isUnknownPosition,
} from '../src/position.js';

const MAX_U64 = 2n ** 64n - 1n;
const u64 = fc.bigInt({ min: 0n, max: MAX_U64 });
const position = fc.record({ commit: u64, prepare: u64 });

describe('position encoding', () => {
  it('writes commit and prepare as zero-padded decimals', () => {
    expect(encodePosition({ commit: 1234n, prepare: 1200n })).toBe('00000000000000001234-00000000000000001200');
    expect(encodePosition({ commit: MAX_U64, prepare: 0n })).toBe('18446744073709551615-00000000000000000000');
  });

  it('decodes what it encodes', () => {
    fc.assert(fc.property(position, (p) => expect(decodePosition(encodePosition(p))).toEqual(p)));
  });

  it('sorts as strings exactly as the positions compare as numbers (commit first, then prepare)', () => {
    fc.assert(
      fc.property(position, position, (a, b) => {
        const [x, y] = [encodePosition(a), encodePosition(b)];
        const stringOrder = x < y ? -1 : x > y ? 1 : 0;
        expect(stringOrder).toBe(compareEsdbPositions(a, b));
      }),
    );
  });

  it('compares commit before prepare, as bigints beyond 2^53', () => {
    const big = 2n ** 60n;
    expect(
      comparePositions(encodePosition({ commit: big, prepare: 0n }), encodePosition({ commit: big + 1n, prepare: 0n })),
    ).toBe(-1);
    expect(
      comparePositions(encodePosition({ commit: 5n, prepare: 9n }), encodePosition({ commit: 6n, prepare: 1n })),
    ).toBe(-1);
    expect(
      comparePositions(encodePosition({ commit: 5n, prepare: 9n }), encodePosition({ commit: 5n, prepare: 8n })),
    ).toBe(1);
    expect(
      comparePositions(encodePosition({ commit: 5n, prepare: 9n }), encodePosition({ commit: 5n, prepare: 9n })),
    ).toBe(0);
  });

  it('refuses strings it did not produce and values outside 64 bits', () => {
    for (const bad of [
      '',
      '12',
      '1-2',
      'abc-def',
      '00000000000000001234/00000000000000001200',
      '99999999999999999999-00000000000000000000',
    ]) {
      expect(() => decodePosition(bad)).toThrow(InvalidPositionError);
    }
    expect(() => encodePosition({ commit: -1n, prepare: 0n })).toThrow(InvalidPositionError);
    expect(() => encodePosition({ commit: MAX_U64 + 1n, prepare: 0n })).toThrow(InvalidPositionError);
    expect(() => comparePositions('nope', encodePosition({ commit: 1n, prepare: 1n }))).toThrow(InvalidPositionError);
  });

  it('recognises the "unknown position" the server sends as 2^64 − 1', () => {
    expect(isUnknownPosition({ commit: MAX_U64, prepare: MAX_U64 })).toBe(true);
    expect(isUnknownPosition({ commit: 10n, prepare: 10n })).toBe(false);
  });

  it('tells whether a position lies strictly past a bound in the reading direction', () => {
    const at = { commit: 10n, prepare: 10n };
    expect(isPast({ commit: 11n, prepare: 11n }, at, 'forwards')).toBe(true);
    expect(isPast(at, at, 'forwards')).toBe(false);
    expect(isPast({ commit: 9n, prepare: 9n }, at, 'backwards')).toBe(true);
    expect(isPast(at, at, 'backwards')).toBe(false);
  });
});
