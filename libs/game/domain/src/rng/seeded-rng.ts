import { assertDrawBound, MAX_DRAW_BOUND, type Rng } from './rng.js';

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, PractRand-clean to 2^60 bytes):
 * 128 bits of state, only 32-bit adds, shifts and xors, so V8 keeps it in registers.
 * Not cryptographic: for simulation, tests and benchmarks only (see `Rng`).
 */
export class SeededRng implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    const [a, b, c, d] = seedWords(String(seed));
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    // The first outputs of a fresh sfc32 still correlate with the seed words.
    for (let i = 0; i < 15; i++) this.advance();
  }

  nextUint32(): number {
    return this.advance();
  }

  private advance(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /**
   * Unbiased, by Lemire's multiply-and-reject: the 32-bit draw x scaled by the bound gives
   * x · bound / 2^32, whose integer part is the result; the few x whose fractional part falls
   * below (2^32 mod bound) would over-represent some results and are drawn again. For bounds up
   * to 2^21 the product is below 2^53, exact in a double, and the common path has no division.
   * Larger bounds take plain rejection sampling (draw again at or above the largest multiple of
   * the bound below 2^32, then reduce modulo the bound).
   */
  nextInt(maxExclusive: number): number {
    if (maxExclusive > 0 && maxExclusive <= EXACT_PRODUCT_BOUND && (maxExclusive | 0) === maxExclusive) {
      // `| 0` floors here (0 ≤ high < 2^21) without touching the global `Math`, which is slow to
      // reach from inside a vm context such as a jest test.
      let product = this.nextUint32() * maxExclusive;
      let high = (product * INVERSE_2_32) | 0;
      let low = product - high * TWO_32;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: the guard only skips the division; the threshold is below the bound, so a low at or above it is never drawn again
      if (low < maxExclusive) {
        const threshold = TWO_32 % maxExclusive;
        while (low < threshold) {
          product = this.nextUint32() * maxExclusive;
          high = (product * INVERSE_2_32) | 0;
          low = product - high * TWO_32;
        }
      }
      return high;
    }
    assertDrawBound(maxExclusive);
    const limit = MAX_DRAW_BOUND - (MAX_DRAW_BOUND % maxExclusive);
    let value = this.nextUint32();
    while (value >= limit) value = this.nextUint32();
    return value % maxExclusive;
  }
}

const TWO_32 = MAX_DRAW_BOUND;
const INVERSE_2_32 = 1 / TWO_32;
const EXACT_PRODUCT_BOUND = 1 << 21;

export function createSeededRng(seed: string | number): SeededRng {
  return new SeededRng(seed);
}

/** cyrb128: spreads any seed text over four independent 32-bit words. */
function seedWords(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
