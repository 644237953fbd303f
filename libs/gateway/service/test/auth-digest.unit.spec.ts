/**
 * Tokens are compared as SHA-256 digests with crypto.timingSafeEqual: node:crypto is replaced by
 * itself with a recording timingSafeEqual before the gateway loads, and a request through the API
 * shows what was compared.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Harness } from './support/harness.js';
import type { TOKENS as TokensType } from './support/operators.js';

const comparisons: { a: Buffer; b: Buffer; equal: boolean }[] = [];
const realCrypto = await import('node:crypto');
jest.unstable_mockModule('node:crypto', () => ({
  ...realCrypto,
  default: realCrypto,
  timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    const equal = realCrypto.timingSafeEqual(a, b);
    comparisons.push({
      a: Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      b: Buffer.from(b.buffer, b.byteOffset, b.byteLength),
      equal,
    });
    return equal;
  },
}));

const { startHarness } = await import('./support/harness.js');
const { TOKENS, testOperators }: { TOKENS: typeof TokensType; testOperators: unknown[] } =
  await import('./support/operators.js');

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

describe('token comparison', () => {
  it('hashes the presented token with SHA-256 and compares it with every operator digest by timingSafeEqual', async () => {
    comparisons.length = 0;
    const response = await harness.http.get('/v1/providers', { token: TOKENS.b });
    expect(response.status).toBe(200);
    expect(comparisons).toHaveLength(testOperators.length);
    for (const { a, b } of comparisons) {
      expect(a.equals(sha256(TOKENS.b))).toBe(true);
      expect(b).toHaveLength(32);
    }
    expect(comparisons.filter((comparison) => comparison.equal)).toHaveLength(1);
  });

  it('makes the same number of comparisons for an unknown token, none of them equal', async () => {
    comparisons.length = 0;
    const response = await harness.http.get('/v1/providers', { token: 'token-of-nobody-0123456789abcdef' });
    expect(response.status).toBe(401);
    expect(comparisons).toHaveLength(testOperators.length);
    expect(
      comparisons.every(
        (comparison) => !comparison.equal && comparison.a.equals(sha256('token-of-nobody-0123456789abcdef')),
      ),
    ).toBe(true);
  });
});
