/**
 * POST /v1/game/launch, GET /v1/providers and GET /v1/games over HTTP on the real event store:
 * spec §2.3 and §8 at their boundaries, D6, D15, D19, and the session docs/architecture.md "Data" describes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  gameSessionStartedData,
  launchGameResponse,
  listGamesResponse,
  listProvidersResponse,
  SESSION_TOKEN_PATTERN,
  sessionKeyOf,
  sessionKeyStream,
} from '@reelstream/contracts';
import type { HttpClient } from './support/http-client.js';
import { startHarness, type Harness } from './support/harness.js';
import { TOKENS } from './support/operators.js';

let harness: Harness;
let a: HttpClient;
let b: HttpClient;
let c: HttpClient;

beforeAll(async () => {
  harness = await startHarness({
    config: { sessionTtlMs: 90 * 60_000, launchBaseUrl: 'https://play.reelstream.test' },
  });
  a = harness.http.withToken(TOKENS.a);
  b = harness.http.withToken(TOKENS.b);
  c = harness.http.withToken(TOKENS.c);
});
afterAll(async () => {
  await harness.close();
});

const launch = (overrides: Record<string, unknown> = {}) => ({
  playerId: 'player_1',
  providerId: 1,
  gameId: 101,
  language: 'en',
  returnUrl: 'https://casino-a.example/lobby',
  isStreamer: false,
  ...overrides,
});

async function launched(client: HttpClient, body: Record<string, unknown>) {
  const response = await client.post('/v1/game/launch', body);
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 200, body: { success: true } });
  const url = new URL(launchGameResponse.parse(response.body).data);
  const token = url.searchParams.get('token') as string;
  const events = await harness.store.readStream(sessionKeyStream(sessionKeyOf(token)));
  return { url, token, events };
}

async function expectRefused(
  client: HttpClient,
  body: unknown,
  status: number,
  code: string,
  path?: string,
): Promise<void> {
  const before = await harness.eventCount();
  const response = await client.post('/v1/game/launch', body);
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  if (path !== undefined)
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  expect(await harness.eventCount()).toBe(before);
}

describe('POST /v1/game/launch', () => {
  it('answers {launch_host}/launch?token=… and starts the session stream with GameSessionStarted', async () => {
    const { url, token, events } = await launched(a, launch({ isStreamer: true }));
    expect(`${url.origin}${url.pathname}`).toBe('https://play.reelstream.test/launch');
    expect([...url.searchParams.keys()]).toEqual(['token']);
    expect(token).toMatch(SESSION_TOKEN_PATTERN);
    // 32 random bytes in base64url.
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(events).toHaveLength(1);
    expect(events[0]?.type).toBe('GameSessionStarted');
    expect(events[0]?.revision).toBe(0);
    // The log holds the token's SHA-256, never the token (the launch URL alone carries it).
    expect(gameSessionStartedData.parse(events[0]?.data)).toEqual({
      token: sessionKeyOf(token),
      operatorId: 'casino-a',
      playerId: 'player_1',
      providerId: 1,
      gameId: 101,
      language: 'en',
      returnUrl: 'https://casino-a.example/lobby',
      isStreamer: true,
      currency: 'EUR',
      startedAt: '2026-05-01T00:00:00.000Z',
      expiresAt: '2026-05-01T01:30:00.000Z',
    });
    expect(events[0]?.metadata).toMatchObject({
      operatorId: 'casino-a',
      occurredAt: '2026-05-01T00:00:00.000Z',
      schemaVersion: 1,
    });
  });

  it('answers 403 STREAMER_NOT_ALLOWED to isStreamer: true for an operator without the streamers feature, and starts nothing', async () => {
    // Casino C has no features configured: streamers is off by default.
    await expectRefused(
      c,
      launch({ isStreamer: true, returnUrl: 'https://casino-c.example/' }),
      403,
      'STREAMER_NOT_ALLOWED',
      'isStreamer',
    );
    await launched(c, launch({ isStreamer: false, returnUrl: 'https://casino-c.example/' }));
  });

  it('gives every launch its own token, also for the same player and game', async () => {
    const first = await launched(a, launch());
    const second = await launched(a, launch());
    expect(first.token).not.toBe(second.token);
  });

  it("uses the operator's currency unless the launch names the player's (D6)", async () => {
    expect((await launched(b, launch({ returnUrl: 'https://anything.example/' }))).events[0]?.data).toMatchObject({
      currency: 'KRW',
      operatorId: 'casino-b',
    });
    expect((await launched(a, launch({ currency: 'JPY' }))).events[0]?.data).toMatchObject({ currency: 'JPY' });
    await expectRefused(a, launch({ currency: 'eur' }), 400, 'VALIDATION_FAILED', 'currency');
    await expectRefused(a, launch({ currency: 'ABC' }), 400, 'VALIDATION_FAILED', 'currency');
  });

  it('normalises the language code', async () => {
    expect((await launched(a, launch({ language: 'zh_hant_tw' }))).events[0]?.data).toMatchObject({
      language: 'zh-Hant-TW',
    });
    expect((await launched(a, launch({ language: 'KO' }))).events[0]?.data).toMatchObject({ language: 'ko' });
    for (const language of ['', 'english', 'e', 'en-', 'en_US_POSIX'])
      await expectRefused(a, launch({ language }), 400, 'VALIDATION_FAILED', 'language');
  });

  it.each([
    ['1 character', 'p', 200],
    ['50 characters', 'p'.repeat(50), 200],
    ['upper, lower, digits and _', 'Player_09', 200],
    ['51 characters', 'p'.repeat(51), 400],
    ['no characters', '', 400],
    ['a dash', 'player-1', 400],
    ['a dot', 'player.1', 400],
    ['a space', 'player 1', 400],
    ['a non-ASCII letter', 'pläyer', 400],
    ['a number instead of a string', 12345, 400],
  ])('a playerId of %s (%j) answers %i (spec §2.3, §8)', async (_name, playerId, status) => {
    if (status === 200) await launched(a, launch({ playerId }));
    else await expectRefused(a, launch({ playerId }), 400, 'VALIDATION_FAILED', 'playerId');
  });

  it('requires every field of spec §2.3', async () => {
    for (const field of ['playerId', 'providerId', 'gameId', 'language', 'returnUrl', 'isStreamer']) {
      const body: Record<string, unknown> = launch();
      delete body[field];
      await expectRefused(a, body, 400, 'VALIDATION_FAILED', field);
    }
  });

  it('takes isStreamer only as a JSON boolean', async () => {
    for (const isStreamer of ['true', 1, 0, null])
      await expectRefused(a, launch({ isStreamer }), 400, 'VALIDATION_FAILED', 'isStreamer');
  });

  it('answers 422 PROVIDER_NOT_FOUND, GAME_NOT_FOUND and GAME_NOT_OF_PROVIDER from the catalog', async () => {
    await expectRefused(a, launch({ providerId: 99 }), 422, 'PROVIDER_NOT_FOUND', 'providerId');
    await expectRefused(a, launch({ gameId: 999 }), 422, 'GAME_NOT_FOUND', 'gameId');
    await expectRefused(a, launch({ providerId: 2, gameId: 101 }), 422, 'GAME_NOT_OF_PROVIDER', 'gameId');
    for (const id of [0, -1, 1.5, '101'])
      await expectRefused(a, launch({ gameId: id }), 400, 'VALIDATION_FAILED', 'gameId');
  });

  it('starts a play-money session when demo is true, and a real-money one otherwise', async () => {
    const demo = await launched(a, launch({ demo: true }));
    expect(gameSessionStartedData.parse(demo.events[0]?.data).demo).toBe(true);
    const real = await launched(a, launch({ demo: false }));
    expect(gameSessionStartedData.parse(real.events[0]?.data).demo).toBeUndefined();
    await expectRefused(a, launch({ demo: 'yes' }), 400, 'VALIDATION_FAILED', 'demo');
  });

  it('launches the instant game too', async () => {
    expect((await launched(a, launch({ providerId: 2, gameId: 203 }))).events[0]?.data).toMatchObject({ gameId: 203 });
  });

  describe('returnUrl (D19)', () => {
    it.each([
      ['a javascript: URL', 'javascript:alert(1)'],
      ['an ftp: URL', 'ftp://casino-a.example/'],
      ['a relative path', '/lobby'],
      ['a URL without scheme', 'casino-a.example/lobby'],
      ['a URL with credentials', 'https://user:pass@casino-a.example/'],
      ['a data: URL', 'data:text/html,hi'],
      ['a URL over 2048 characters', `https://casino-a.example/${'x'.repeat(2040)}`],
    ])('refuses %s with 400 VALIDATION_FAILED: absolute http(s) only', async (_name, returnUrl) => {
      await expectRefused(a, launch({ returnUrl }), 400, 'VALIDATION_FAILED', 'returnUrl');
    });

    it.each(['https://casino-a.example', 'https://casino-a.example:443/lobby?x=1', 'http://localhost:3000/back'])(
      'accepts %s within the allowed origins',
      async (returnUrl) => {
        await launched(a, launch({ returnUrl }));
      },
    );

    it.each([
      'https://evil.example/lobby',
      'http://casino-a.example/lobby',
      'https://casino-a.example:8443/',
      'https://sub.casino-a.example/',
      'http://localhost:3001/',
    ])('refuses %s outside the allowed origins with 422 RETURN_URL_NOT_ALLOWED', async (returnUrl) => {
      await expectRefused(a, launch({ returnUrl }), 422, 'RETURN_URL_NOT_ALLOWED', 'returnUrl');
    });

    it('accepts any http(s) URL for an operator without allowed origins', async () => {
      await launched(c, launch({ returnUrl: 'http://anywhere.example:8080/x' }));
    });
  });
});

describe('GET /v1/providers and GET /v1/games (D15)', () => {
  it('lists the providers of the catalog', async () => {
    const response = await a.get('/v1/providers');
    expect(response.status).toBe(200);
    expect(listProvidersResponse.parse(response.body).data).toEqual([
      { providerId: 1, name: 'Aurora Reels' },
      { providerId: 2, name: 'Neon Forge' },
    ]);
  });

  it('lists every game, or the games of one provider, with bet levels in the caller currency', async () => {
    const all = listGamesResponse.parse((await a.get('/v1/games')).body).data;
    expect(all.map((game) => game.gameId)).toEqual([101, 102, 103, 201, 202, 203]);
    const ofTwo = listGamesResponse.parse((await a.get('/v1/games?providerId=2')).body).data;
    expect(ofTwo.map((game) => game.gameId)).toEqual([201, 202, 203]);
    expect(ofTwo.find((game) => game.gameId === 203)).toMatchObject({ type: 'instant', supportsFreeSpins: false });
    const inKrw = listGamesResponse.parse((await b.get('/v1/games?providerId=1')).body).data;
    expect(inKrw[0]?.betLevels.every((level) => Number.isInteger(level))).toBe(true);
  });

  it('shows per game whether it can deliver a Regular Bonus Call: every slot, not the instant game', async () => {
    const all = listGamesResponse.parse((await a.get('/v1/games')).body).data;
    expect(all.map((game) => [game.gameId, game.type, game.supportsRegularBonusCall])).toEqual([
      [101, 'slot', true],
      [102, 'slot', true],
      [103, 'slot', true],
      [201, 'slot', true],
      [202, 'slot', true],
      [203, 'instant', false],
    ]);
  });

  it('answers an empty list for an unknown provider and 400 for a providerId that is not an id', async () => {
    expect((await a.get('/v1/games?providerId=77')).body.data).toEqual([]);
    expect((await a.get('/v1/games?providerId=')).body.data).toHaveLength(6);
    for (const query of [
      '?providerId=0',
      '?providerId=abc',
      '?providerId=01',
      '?providerId=1&providerId=2',
      '?provider=1',
    ]) {
      const response = await a.get(`/v1/games${query}`);
      expect({ query, status: response.status, code: response.body.error.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    }
  });
});
