import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import type { GameSessionStarted, LaunchGameRequest } from '@reelstream/contracts';
import { deciderSpecification, gameSessionStarted, LAUNCH_REQUEST, SESSION_TOKEN } from '@reelstream/testing';
import { parseCatalog, playableSession, sessionDecider, type StartSession } from '@reelstream/game-domain';

const shipped = JSON.parse(readFileSync(new URL('../../../../../config/catalog.json', import.meta.url), 'utf8')) as {
  games: { gameId: number; betLevels: Record<string, number[]> }[];
};
// Game 101 offered only in cents: a currency without minor units (ISK) cannot express any of its levels.
for (const game of shipped.games) if (game.gameId === 101) game.betLevels = { default: [0.2, 0.4], KRW: [200, 400] };
const catalog = parseCatalog(shipped);
const spec = deciderSpecification(sessionDecider);
const TOKEN = SESSION_TOKEN;
const NOW = '2026-05-01T10:00:00.000Z';

function start(change: Partial<LaunchGameRequest> = {}, origins: string[] = [], streamers = false): StartSession {
  return {
    type: 'StartSession',
    token: TOKEN,
    operator: { id: 'casino-t', currency: 'EUR', allowedReturnOrigins: origins, features: { streamers } },
    request: { ...LAUNCH_REQUEST, ...change },
    catalog,
    now: NOW,
    ttlMs: 3_600_000,
  };
}

const started: GameSessionStarted = { type: 'GameSessionStarted', data: gameSessionStarted() };

describe('StartSession', () => {
  it('starts the session in the operator’s currency unless the launch names one, expiring after the TTL', () => {
    spec.given([]).when(start()).then([started]);
    spec
      .given([])
      .when(start({ currency: 'KRW', demo: true }))
      .then([{ type: 'GameSessionStarted', data: { ...started.data, currency: 'KRW', demo: true } }]);
  });

  it('decides nothing when the same launch is decided again, and refuses another start of the token', () => {
    spec.given([started]).when(start()).thenNothing();
    const another = { code: 'INTERNAL' as const, message: `session ${TOKEN} was already started by another launch` };
    spec
      .given([started])
      .when(start({ playerId: 'player_43' }))
      .thenFails(another);
    // The same player and operator at another instant, or the same player and instant at another operator.
    spec
      .given([started])
      .when({ ...start(), now: '2026-05-01T10:00:01.000Z' })
      .thenFails(another);
    spec
      .given([started])
      .when({ ...start(), operator: { ...start().operator, id: 'casino-u' } })
      .thenFails(another);
  });

  it('refuses an unknown provider, an unknown game, a game of another provider and a currency without bet levels', () => {
    spec
      .given([])
      .when(start({ providerId: 99 }))
      .thenFails({
        code: 'PROVIDER_NOT_FOUND',
        details: [{ path: 'providerId', message: 'no provider 99; see GET /v1/providers' }],
      });
    spec
      .given([])
      .when(start({ gameId: 999 }))
      .thenFails({
        code: 'GAME_NOT_FOUND',
        details: [{ path: 'gameId', message: 'no game 999; see GET /v1/games' }],
      });
    spec
      .given([])
      .when(start({ providerId: 2 }))
      .thenFails({
        code: 'GAME_NOT_OF_PROVIDER',
        details: [{ path: 'gameId', message: 'game 101 belongs to provider 1, not 2' }],
      });
    spec
      .given([])
      .when(start({ currency: 'ISK' }))
      .thenFails({
        code: 'VALIDATION_FAILED',
        details: [{ path: 'currency', message: 'game 101 has no bet levels that can be expressed in ISK' }],
      });
  });

  it('refuses isStreamer: true with STREAMER_NOT_ALLOWED unless the operator has the streamers feature', () => {
    spec
      .given([])
      .when(start({ isStreamer: true }))
      .thenFails({
        code: 'STREAMER_NOT_ALLOWED',
        details: [
          { path: 'isStreamer', message: 'isStreamer: true needs the operator feature streamers; launch with false' },
        ],
      });
    // Before the catalog's rules: a streamer launch of an unknown game is refused for the privilege first.
    spec
      .given([])
      .when(start({ isStreamer: true, gameId: 999 }))
      .thenFails({ code: 'STREAMER_NOT_ALLOWED' });
    spec
      .given([])
      .when(start({ isStreamer: true }, [], true))
      .then([{ type: 'GameSessionStarted', data: { ...started.data, isStreamer: true } }]);
    spec
      .given([])
      .when(start({}, [], false))
      .then([started]);
  });

  it('refuses a returnUrl outside the operator’s allowed origins (D19)', () => {
    spec
      .given([])
      .when(start({}, ['https://other.example']))
      .thenFails({
        code: 'RETURN_URL_NOT_ALLOWED',
        details: [{ path: 'returnUrl', message: 'the origin of returnUrl must be one of https://other.example' }],
      });
    spec
      .given([])
      .when(start({}, ['https://other.example', 'https://second.example']))
      .thenFails({
        details: [
          {
            path: 'returnUrl',
            message: 'the origin of returnUrl must be one of https://other.example, https://second.example',
          },
        ],
      });
    spec
      .given([])
      .when(start({}, ['https://casino.example']))
      .then([started]);
  });
});

describe('the recorded session', () => {
  it('is a demo session only when its start says so', () => {
    expect(sessionDecider.evolve(sessionDecider.initialState, started)).toEqual({
      session: { ...started.data, demo: false },
    });
    const demo: GameSessionStarted = { type: 'GameSessionStarted', data: { ...started.data, demo: true } };
    expect(sessionDecider.evolve(sessionDecider.initialState, demo).session?.demo).toBe(true);
  });
});

describe('a session may be played', () => {
  const session = { ...started.data, demo: false };
  it('until it expires or ends; a missing session is not found', () => {
    expect(playableSession(session, new Date('2026-05-01T10:59:59.999Z'))).toBe(session);
    expect(playableSession(session, new Date('2026-05-01T11:00:00.000Z'))).toMatchObject({ code: 'SESSION_EXPIRED' });
    const ended = sessionDecider.evolve(sessionDecider.evolve(sessionDecider.initialState, started), {
      type: 'GameSessionEnded',
      data: { token: TOKEN, reason: 'closed', endedAt: '2026-05-01T10:10:00.000Z' },
    });
    expect(ended.session?.endedAt).toBe('2026-05-01T10:10:00.000Z');
    expect(playableSession(ended.session, new Date('2026-05-01T10:20:00.000Z'))).toMatchObject({
      code: 'SESSION_EXPIRED',
    });
    expect(playableSession(undefined, new Date(NOW))).toMatchObject({ type: 'Refusal', code: 'SESSION_NOT_FOUND' });
  });
});
