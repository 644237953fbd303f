/**
 * The launch host's rate limits, on the real stack: a request naming a live session counts
 * against its operator's player (every session of the player together), any other against its
 * client address; past either, 429 RATE_LIMITED in the error envelope with Retry-After.
 */
import { describe, expect, it } from '@jest/globals';
import { errorEnvelope } from '@reelstream/contracts';
import { call, type JsonResponse } from './support/http.js';
import { Stack } from './support/stack.js';

// One token each 100 s: no refill while a test runs, even on busy cores.
const stack = Stack.forTests({
  gameServer: {
    rateLimits: { player: { perSecond: 0.01, burst: 3 }, unauthenticated: { perSecond: 0.01, burst: 3 } },
    // Loopback is the trusted proxy: X-Forwarded-For names the client, so one test process is many addresses.
    trustProxy: ['loopback'],
  },
});

const UNKNOWN_TOKEN = 'q3Yx0mVb7m2c1kTzV3dH0rFfQm8uJ6nE9sWc4aLpB2g';

const from = (address: string, path: string, method = 'GET', json?: unknown) =>
  call(method, `${stack.gameServer.url}${path}`, {
    headers: { 'x-forwarded-for': address },
    ...(json === undefined ? {} : { json }),
  });

function expectRateLimited(response: JsonResponse): void {
  expect(response.status).toBe(429);
  expect(errorEnvelope.parse(response.body)).toMatchObject({
    success: false,
    data: null,
    error: { code: 'RATE_LIMITED' },
  });
  expect(response.headers.get('retry-after')).toBe('100');
}

describe('the player API, per operator and player', () => {
  it("limits a player across its sessions, and not another player or the player's address", async () => {
    const first = await stack.launch('rate_player', 101);
    const second = await stack.launch('rate_player', 101);
    const other = await stack.launch('rate_other', 101);

    expect((await from('203.0.113.10', `/api/sessions/${first.token}`)).status).toBe(200);
    expect((await from('203.0.113.10', `/api/sessions/${second.token}`)).status).toBe(200);
    expect((await from('203.0.113.11', `/api/sessions/${first.token}`)).status).toBe(200);
    // The burst is spent whichever session or address asks: the session, a spin and the page are refused.
    expectRateLimited(await from('203.0.113.12', `/api/sessions/${second.token}`));
    expectRateLimited(await from('203.0.113.10', `/api/sessions/${first.token}/spin`, 'POST', { bet: 0.2 }));
    expectRateLimited(await from('203.0.113.10', `/launch?token=${first.token}`));

    expect((await from('203.0.113.10', `/api/sessions/${other.token}`)).status).toBe(200);
  });
});

describe('requests naming no live session, per client address', () => {
  it('limits an address guessing tokens, then everything else it asks without a session', async () => {
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.20', `/api/sessions/${UNKNOWN_TOKEN}`)).status).toBe(404);
    expectRateLimited(await from('203.0.113.20', `/api/sessions/${UNKNOWN_TOKEN}`));
    expectRateLimited(await from('203.0.113.20', `/launch?token=${UNKNOWN_TOKEN}`));
    expectRateLimited(await from('203.0.113.20', '/assets/game.js'));
    expectRateLimited(await from('203.0.113.20', '/healthz'));

    // Another address has its own bucket; a live session from the limited address is its player's.
    expect((await from('203.0.113.21', `/api/sessions/${UNKNOWN_TOKEN}`)).status).toBe(404);
    const { token } = await stack.launch('rate_guessed_next_door', 101);
    expect((await from('203.0.113.20', `/api/sessions/${token}`)).status).toBe(200);
  });
});
