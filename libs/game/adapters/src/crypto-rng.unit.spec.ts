import { describe, expect, it } from '@jest/globals';
import { cryptoRng } from './crypto-rng.js';

describe('the production RNG', () => {
  it('draws within the bound and refuses a bound the engine may not ask for', () => {
    const draws = Array.from({ length: 2_000 }, () => cryptoRng.nextInt(7));
    expect(Math.min(...draws)).toBe(0);
    expect(Math.max(...draws)).toBe(6);
    expect(cryptoRng.nextInt(1)).toBe(0);
    expect(cryptoRng.nextInt(2 ** 32)).toBeLessThan(2 ** 32);
    for (const bound of [0, 1.5, 2 ** 32 + 1]) expect(() => cryptoRng.nextInt(bound)).toThrow(/bound/);
  });
});
