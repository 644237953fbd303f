import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined fields, keeping array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: undefined, b: null } })).toBe('{"a":{"b":null,"d":[3,1]},"b":1}');
  });

  it('does not depend on key insertion order (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
        expect(JSON.parse(canonicalJson(record))).toEqual(JSON.parse(JSON.stringify(record)));
      }),
      { numRuns: 200 },
    );
  });
});
