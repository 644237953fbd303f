import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { errorEnvelope } from '@reelstream/contracts';
import { startHarness, type Harness } from './support/harness.js';
import { testOperators, TOKENS } from './support/operators.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ config: { rateLimit: { perSecond: 2, burst: 3 } } });
});
afterAll(async () => {
  await harness.close();
});

describe('Authorization: Bearer', () => {
  it.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['another scheme', `Basic ${Buffer.from(`casino-a:${TOKENS.a}`).toString('base64')}`],
    ['the scheme without a token', 'Bearer'],
    ['the scheme and spaces', 'Bearer    '],
    ['two tokens', `Bearer ${TOKENS.a} ${TOKENS.b}`],
    ['the token without the scheme', TOKENS.a],
    ['an unknown token', 'Bearer token-of-nobody-0123456789abcdef'],
    ['the token with one character changed', `Bearer ${TOKENS.a.slice(0, -1)}0`],
    ['a prefix of the token', `Bearer ${TOKENS.a.slice(0, -1)}`],
    ['the token with a character added', `Bearer ${TOKENS.a}0`],
    [
      'the SHA-256 of a token instead of the token',
      'Bearer 5b1f2c7a9d4e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f607182',
    ],
    ['a very long token', `Bearer ${'x'.repeat(4000)}`],
  ])('answers %s with 401 UNAUTHORIZED and a WWW-Authenticate challenge', async (_name, authorization) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const response = await harness.http.get('/v1/providers', { token: null, headers });
    expect(response.status).toBe(401);
    expect(errorEnvelope.parse(response.body).error.code).toBe('UNAUTHORIZED');
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="reelstream"');
  });

  it('answers the same body for a missing and an unknown token, so neither tells which it was', async () => {
    const missing = await harness.http.get('/v1/providers', { token: null });
    const unknown = await harness.http.get('/v1/providers', { token: 'token-of-nobody-0123456789abcdef' });
    expect(missing.body).toEqual(unknown.body);
  });

  it('accepts the scheme in any case and trailing spaces', async () => {
    expect(
      (await harness.http.get('/v1/games', { token: null, headers: { authorization: `bearer ${TOKENS.c}` } })).status,
    ).toBe(200);
    expect(
      (await harness.http.get('/v1/games', { token: null, headers: { authorization: `BEARER ${TOKENS.c}  ` } })).status,
    ).toBe(200);
  });

  it('authenticates an operator configured only by the SHA-256 of its token, and scopes the answer to it', async () => {
    harness.clock.advance(10_000);
    const response = await harness.http.get('/v1/games?providerId=1', { token: TOKENS.b });
    expect(response.status).toBe(200);
    // Casino B plays in KRW: the bet levels are whole won.
    expect(response.body.data[0].betLevels).toEqual([200, 400, 1000, 2000, 4000, 10000]);
  });
});

describe('per-operator rate limit (burst 3, 2 per second)', () => {
  it('answers 429 RATE_LIMITED with Retry-After once the burst is spent, per operator, and refills with time', async () => {
    harness.clock.advance(60_000);
    const a = harness.http.withToken(TOKENS.a);
    for (let i = 0; i < 3; i++) expect((await a.get('/v1/providers')).status).toBe(200);
    const limited = await a.get('/v1/providers');
    expect(limited.status).toBe(429);
    expect(errorEnvelope.parse(limited.body).error.code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('1');

    // Another operator has its own bucket.
    expect((await harness.http.get('/v1/providers', { token: TOKENS.c })).status).toBe(200);

    // Half a second gives one token back (2 per second): one more request, then limited again.
    harness.clock.advance(500);
    expect((await a.get('/v1/providers')).status).toBe(200);
    expect((await a.get('/v1/providers')).status).toBe(429);

    // A full refill after the bucket's time: the burst again, not more.
    harness.clock.advance(10_000);
    for (let i = 0; i < 3; i++) expect((await a.get('/v1/providers')).status).toBe(200);
    expect((await a.get('/v1/providers')).status).toBe(429);
  });

  it('does not count requests that fail authentication against anyone', async () => {
    harness.clock.advance(60_000);
    for (let i = 0; i < 10; i++)
      expect((await harness.http.get('/v1/providers', { token: 'token-of-nobody-0123456789abcdef' })).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await harness.http.get('/v1/providers', { token: TOKENS.a })).status).toBe(200);
  });

  it('leaves /healthz, /readyz and /openapi.json outside the limit', async () => {
    harness.clock.advance(60_000);
    for (let i = 0; i < 10; i++) expect((await harness.http.get('/openapi.json')).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await harness.http.get('/healthz')).status).toBe(200);
  });
});

describe("an operator’s own rate limit (its configuration's rateLimit)", () => {
  let own: Harness;
  beforeAll(async () => {
    // The gateway's default stays burst 3, 2 per second; B gets a larger burst, C a slower refill.
    own = await startHarness({
      config: { rateLimit: { perSecond: 2, burst: 3 } },
      operators: testOperators.map((operator) =>
        operator.id === 'casino-b'
          ? { ...operator, rateLimit: { burst: 6 } }
          : operator.id === 'casino-c'
            ? { ...operator, rateLimit: { perSecond: 0.25, burst: 1 } }
            : operator,
      ),
    });
  });
  afterAll(async () => {
    await own.close();
  });

  /** How many of `count` requests in a row are answered 200 before the first 429. */
  async function acceptedInARow(token: string, count: number): Promise<number> {
    let accepted = 0;
    for (let i = 0; i < count; i++) {
      const response = await own.http.get('/v1/providers', { token });
      if (response.status !== 200) {
        expect(response.status).toBe(429);
        break;
      }
      accepted += 1;
    }
    return accepted;
  }

  it('gives each operator its own burst, the default where it sets none', async () => {
    own.clock.advance(60_000);
    expect(await acceptedInARow(TOKENS.a, 10)).toBe(3);
    expect(await acceptedInARow(TOKENS.b, 10)).toBe(6);
    expect(await acceptedInARow(TOKENS.c, 10)).toBe(1);
  });

  it("refills at the operator's own rate and says so in Retry-After", async () => {
    own.clock.advance(60_000);
    expect(await acceptedInARow(TOKENS.c, 2)).toBe(1);
    const limited = await own.http.get('/v1/providers', { token: TOKENS.c });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '4']);
    own.clock.advance(2_000);
    expect((await own.http.get('/v1/providers', { token: TOKENS.c })).status).toBe(429);
    own.clock.advance(2_000);
    expect((await own.http.get('/v1/providers', { token: TOKENS.c })).status).toBe(200);
    // B keeps the default rate: half a second gives one token back.
    expect(await acceptedInARow(TOKENS.b, 10)).toBe(6);
    own.clock.advance(500);
    expect(await acceptedInARow(TOKENS.b, 10)).toBe(1);
  });
});

describe('requests without valid credentials: limited per client address (burst 3, 1 per second)', () => {
  let limited: Harness;
  beforeAll(async () => {
    // Loopback is the trusted proxy: X-Forwarded-For names the client, so one test process is many addresses.
    limited = await startHarness({
      config: {
        rateLimit: { perSecond: 2, burst: 3 },
        unauthenticatedRateLimit: { perSecond: 1, burst: 3 },
        trustProxy: ['loopback'],
      },
    });
  });
  afterAll(async () => {
    await limited.close();
  });

  const from = (address: string, token: string | null = 'token-of-nobody-0123456789abcdef') =>
    limited.http.get('/v1/providers', { token, headers: { 'x-forwarded-for': address } });

  it('answers 429 RATE_LIMITED with Retry-After in the error envelope once an address spent its burst of refused tokens', async () => {
    limited.clock.advance(60_000);
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.1')).status).toBe(401);
    const over = await from('203.0.113.1');
    expect(over.status).toBe(429);
    expect(errorEnvelope.parse(over.body)).toMatchObject({
      success: false,
      data: null,
      error: { code: 'RATE_LIMITED' },
    });
    expect(over.headers.get('retry-after')).toBe('1');
    // a missing token counts the same
    expect((await from('203.0.113.1', null)).status).toBe(429);

    // Another address has its own bucket; a second refills one request.
    expect((await from('203.0.113.2')).status).toBe(401);
    limited.clock.advance(1_000);
    expect((await from('203.0.113.1')).status).toBe(401);
    expect((await from('203.0.113.1')).status).toBe(429);
  });

  it("leaves an operator's valid requests from that address to the operator's own limit", async () => {
    limited.clock.advance(60_000);
    for (let i = 0; i < 4; i++) await from('203.0.113.3');
    expect((await from('203.0.113.3')).status).toBe(429);
    const valid = (await from('203.0.113.3', TOKENS.a)).status;
    expect(valid).toBe(200);
  });

  it('counts the probes, the docs and unknown paths, which take no credentials, by address too', async () => {
    limited.clock.advance(60_000);
    const get = (path: string) =>
      limited.http.get(path, { token: null, headers: { 'x-forwarded-for': '203.0.113.4' } });
    expect((await get('/openapi.json')).status).toBe(200);
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/no-such-path')).status).toBe(404);
    const over = await get('/openapi.json');
    expect(over.status).toBe(429);
    expect(errorEnvelope.parse(over.body).error.code).toBe('RATE_LIMITED');
    expect(over.headers.get('retry-after')).toBe('1');
  });
});
