import { describe, expect, it } from '@jest/globals';
import { balanceImplausibility, DEFAULT_BALANCE_CEILING_UNITS } from './plausible-balance.js';

describe('balanceImplausibility', () => {
  it('accepts 0 and any whole balance up to the ceiling, in the currency’s own minor units', () => {
    expect(balanceImplausibility(0, 'EUR')).toBeUndefined();
    expect(balanceImplausibility(DEFAULT_BALANCE_CEILING_UNITS * 100, 'EUR')).toBeUndefined();
    // KRW has no minor units: its ceiling is as many won.
    expect(balanceImplausibility(DEFAULT_BALANCE_CEILING_UNITS, 'KRW')).toBeUndefined();
    expect(balanceImplausibility(5_000, 'EUR', 50)).toBeUndefined();
  });

  it('refuses a negative balance', () => {
    expect(balanceImplausibility(-1, 'EUR')).toBe('negative');
  });

  it('refuses a balance above the ceiling', () => {
    expect(balanceImplausibility(DEFAULT_BALANCE_CEILING_UNITS * 100 + 1, 'EUR')).toBe('above_ceiling');
    expect(balanceImplausibility(DEFAULT_BALANCE_CEILING_UNITS + 1, 'KRW')).toBe('above_ceiling');
    expect(balanceImplausibility(5_001, 'EUR', 50)).toBe('above_ceiling');
  });

  it('refuses what is not a whole number of minor units', () => {
    for (const minor of [0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])
      expect(balanceImplausibility(minor, 'EUR')).toBe('not_whole_minor_units');
  });
});
