import { describe, expect, it } from '@jest/globals';
import { deepEqual } from './deep-equal.js';

describe('structural equality of JSON-like data', () => {
  it('compares primitives by value, NaN equal to itself', () => {
    expect(deepEqual(1, 1)).toBe(true);
    expect(deepEqual('a', 'a')).toBe(true);
    expect(deepEqual(Number.NaN, Number.NaN)).toBe(true);
    expect(deepEqual(null, null)).toBe(true);
    expect(deepEqual(1, 2)).toBe(false);
    expect(deepEqual(1, '1')).toBe(false);
  });

  it('never finds null, or a primitive, equal to an object, whichever side it is on', () => {
    expect(deepEqual(null, {})).toBe(false);
    expect(deepEqual({}, null)).toBe(false);
    expect(deepEqual(1, {})).toBe(false);
    expect(deepEqual({}, 1)).toBe(false);
    expect(deepEqual('', [])).toBe(false);
    expect(deepEqual([], '')).toBe(false);
  });

  it('never finds an array equal to a plain object with the same keys and values', () => {
    expect(deepEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(deepEqual({ 0: 1, 1: 2 }, [1, 2])).toBe(false);
    expect(deepEqual([], {})).toBe(false);
  });

  it('finds arrays equal when they hold equal elements in the same order, and only then', () => {
    expect(deepEqual([1, [2, 3]], [1, [2, 3]])).toBe(true);
    expect(deepEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(deepEqual([1, 2, 3], [1, 2])).toBe(false);
    expect(deepEqual([1, 2, 3], [1, 5, 3])).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
  });

  it('compares an array by its elements only: a property set beside them is not data (JSON drops it)', () => {
    expect(deepEqual(Object.assign([1, 2], { note: 'x' }), [1, 2])).toBe(true);
  });

  it('finds objects equal when they have the same keys with equal values, in any order', () => {
    expect(deepEqual({ a: 1, b: { c: [1, { d: 'e' }] } }, { b: { c: [1, { d: 'e' }] }, a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(deepEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(deepEqual({ a: 1, b: { c: [1, { d: 'e' }] } }, { a: 1, b: { c: [1, { d: 'f' }] } })).toBe(false);
  });
});
