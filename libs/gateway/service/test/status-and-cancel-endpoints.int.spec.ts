/**
 * POST /v1/bonus-call/cancel, GET /v1/bonus-call/{issueId} and GET /v1/bonus-call over HTTP
 * with the real bonus-ledger (decisions.md D12–D14): every state a cancel can meet, and the queries.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getBonusCallResponse, isRefusal, listBonusCallsResponse } from '@reelstream/contracts';
import type { HttpClient } from './support/http-client.js';
import { TOKENS } from './support/operators.js';
import { freeSpinBodies } from './support/registrations.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let a: HttpClient;
let players = 0;
let rounds = 9_000_000_000;

beforeAll(async () => {
  stack = await startStack();
  a = stack.http.withToken(TOKENS.a);
});
afterAll(async () => {
  await stack.close();
});

const body = freeSpinBodies('bonus', 'status_player_', {
  gameId: 101,
  callAmount: 5,
  metaData: { spinAmount: 2, baseBetAmount: 0.2 },
});

async function register(input: Record<string, unknown>): Promise<number> {
  const response = await a.post('/v1/bonus-call/register', input);
  expect(response.status).toBe(200);
  return response.body.data.issueId as number;
}

/** Plays one free spin as the game-server does, in its own process: start, then settle with `winMinor`. */
async function playFreeSpin(playerId: string, issueId: number, winMinor: number): Promise<void> {
  rounds += 1;
  const origin = { commandId: `round-${rounds}`, correlationId: `round-${rounds}`, operatorId: 'casino-a' };
  const started = await stack.freeSpins.startSpin(
    { operatorId: 'casino-a', playerId, issueId, gameId: 101, roundId: rounds },
    origin,
  );
  expect(isRefusal(started)).toBe(false);
  const settled = await stack.freeSpins.settleSpin(
    { operatorId: 'casino-a', playerId, issueId, roundId: rounds, winMinor },
    origin,
  );
  expect(isRefusal(settled)).toBe(false);
}

describe('POST /v1/bonus-call/cancel', () => {
  it('cancels an active bonus call by issueId, and again answers 200 (D14)', async () => {
    const issueId = await register(body());
    const first = await a.post('/v1/bonus-call/cancel', { issueId });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, message: 'OK', data: { issueId, status: 'canceled' } });
    const events = await stack.eventCount();
    const again = await a.post('/v1/bonus-call/cancel', { issueId: String(issueId) });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ issueId, status: 'canceled' });
    expect(await stack.eventCount()).toBe(events);
    expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data).toMatchObject({
      status: 'canceled',
      canceledAt: '2026-05-01T00:00:00.000Z',
    });
  });

  it('cancels by platformId', async () => {
    const input = body();
    const issueId = await register(input);
    const response = await a.post('/v1/bonus-call/cancel', { platformId: input['platformId'] });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ issueId, status: 'canceled' });
  });

  it('keeps the wins of a partly played bonus call when it is canceled', async () => {
    const input = body({ metaData: { spinAmount: 3, baseBetAmount: 0.2 } });
    const issueId = await register(input);
    await playFreeSpin(input['playerId'] as string, issueId, 120);
    expect((await a.post('/v1/bonus-call/cancel', { issueId })).status).toBe(200);
    expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data).toMatchObject({
      status: 'canceled',
      spinsUsed: 1,
      spinsLeft: 2,
      totalWin: 1.2,
      winCapLeft: 3.8,
    });
  });

  it('answers 409 BONUS_ALREADY_COMPLETED once every free spin is used (spec §3)', async () => {
    const input = body({ metaData: { spinAmount: 1, baseBetAmount: 0.2 } });
    const issueId = await register(input);
    await playFreeSpin(input['playerId'] as string, issueId, 0);
    expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data).toMatchObject({ status: 'completed', spinsLeft: 0 });
    const response = await a.post('/v1/bonus-call/cancel', { issueId });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('BONUS_ALREADY_COMPLETED');
  });

  it('answers 409 BONUS_ALREADY_COMPLETED once the win cap is reached (D20)', async () => {
    const input = body({ callAmount: 1, metaData: { spinAmount: 10, baseBetAmount: 0.2 } });
    const issueId = await register(input);
    await playFreeSpin(input['playerId'] as string, issueId, 5_000);
    expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data).toMatchObject({
      status: 'completed',
      totalWin: 1,
      winCapLeft: 0,
    });
    expect((await a.post('/v1/bonus-call/cancel', { platformId: input['platformId'] })).body.error.code).toBe(
      'BONUS_ALREADY_COMPLETED',
    );
  });

  it('answers 409 BONUS_EXPIRED after expireAt (spec §3)', async () => {
    const input = body({ expireAt: '2026-05-01 01:00:00' });
    const issueId = await register(input);
    stack.clock.advance(2 * 3_600_000);
    try {
      // What the ledger's expiry timer does at expireAt.
      const expired = await stack.expire({
        operatorId: 'casino-a',
        playerId: input['playerId'] as string,
        issueId,
        expireAt: '2026-05-01T01:00:00.000Z',
      });
      expect(expired).toBe(true);
      const response = await a.post('/v1/bonus-call/cancel', { issueId });
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('BONUS_EXPIRED');
      expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data).toMatchObject({
        status: 'expired',
        expiredAt: '2026-05-01T02:00:00.000Z',
      });
    } finally {
      stack.clock.set('2026-05-01T00:00:00.000Z');
    }
  });

  it('answers 404 BONUS_NOT_FOUND for an unknown issueId or platformId', async () => {
    for (const ref of [{ issueId: 123_456_789 }, { platformId: 'never-registered' }]) {
      const response = await a.post('/v1/bonus-call/cancel', ref);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('BONUS_NOT_FOUND');
    }
  });

  it('answers 400 VALIDATION_FAILED for a body that names no bonus call or both ways', async () => {
    for (const ref of [{}, { issueId: 1, platformId: 'x' }, { issueId: 0 }, { issueId: 1.5 }, { platformId: '' }]) {
      const response = await a.post('/v1/bonus-call/cancel', ref);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('GET /v1/bonus-call/{issueId}', () => {
  it('answers the bonus call in the API shape', async () => {
    // 1 EUR is a bet level of both games.
    const input = body({ gameId: [101, 103], callAmount: 7.5, metaData: { spinAmount: 2, baseBetAmount: 1 } });
    const issueId = await register(input);
    const response = await a.get(`/v1/bonus-call/${issueId}`);
    expect(response.status).toBe(200);
    expect(getBonusCallResponse.parse(response.body).data).toEqual({
      issueId,
      platformId: input['platformId'],
      playerId: input['playerId'],
      providerId: 1,
      gameIds: [101, 103],
      bonusType: 1,
      currency: 'EUR',
      callAmount: 7.5,
      spinAmount: 2,
      baseBetAmount: 1,
      spinsUsed: 0,
      spinsLeft: 2,
      totalWin: 0,
      winCapLeft: 7.5,
      status: 'active',
      expireAt: '2026-06-30T23:59:59.000Z',
      createdAt: '2026-05-01T00:00:00.000Z',
    });
  });

  it('answers 404 BONUS_NOT_FOUND for an unknown issueId and 400 for one that is not an id', async () => {
    const unknown = await a.get('/v1/bonus-call/987654321');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'BONUS_NOT_FOUND']);
    const invalid = await a.get('/v1/bonus-call/not-an-id');
    expect([invalid.status, invalid.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('GET /v1/bonus-call', () => {
  it('lists a player’s bonus calls newest first, by status, by platformId, page by page', async () => {
    const playerId = `listed_player_${++players}`;
    const prefix = `listed-${players}`;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const issueId = await register(body({ playerId, platformId: `${prefix}-${i}` }));
      ids.push(issueId);
      if (i < 2) expect((await a.post('/v1/bonus-call/cancel', { issueId })).status).toBe(200);
    }
    const all = listBonusCallsResponse.parse((await a.get(`/v1/bonus-call?playerId=${playerId}`)).body).data;
    expect(all.items.map((item) => item.issueId)).toEqual([...ids].reverse());
    expect(all.nextCursor).toBeNull();

    const active = (await a.get(`/v1/bonus-call?playerId=${playerId}&status=active`)).body.data;
    expect(active.items.map((item: { issueId: number }) => item.issueId)).toEqual([ids[2]]);
    const canceled = (await a.get(`/v1/bonus-call?playerId=${playerId}&status=canceled`)).body.data;
    expect(canceled.items.map((item: { issueId: number }) => item.issueId)).toEqual([ids[1], ids[0]]);
    const byPlatform = (await a.get(`/v1/bonus-call?platformId=${prefix}-1`)).body.data;
    expect(byPlatform.items.map((item: { issueId: number }) => item.issueId)).toEqual([ids[1]]);

    const first = (await a.get(`/v1/bonus-call?playerId=${playerId}&limit=2`)).body.data;
    expect(first.items.map((item: { issueId: number }) => item.issueId)).toEqual([ids[2], ids[1]]);
    expect(typeof first.nextCursor).toBe('string');
    const second = (await a.get(`/v1/bonus-call?playerId=${playerId}&limit=2&cursor=${first.nextCursor as string}`))
      .body.data;
    expect(second.items.map((item: { issueId: number }) => item.issueId)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
  });

  it('answers an empty page for a player without bonus calls', async () => {
    const response = await a.get('/v1/bonus-call?playerId=nobody_at_all');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ items: [], nextCursor: null });
  });

  it('answers 400 VALIDATION_FAILED for an invalid filter', async () => {
    for (const query of [
      '?status=finished',
      '?limit=0',
      '?limit=101',
      '?limit=ten',
      '?cursor=%2F%2F',
      '?playerId=a-b',
      '?player=x',
    ]) {
      const response = await a.get(`/v1/bonus-call${query}`);
      expect({ query, status: response.status, code: response.body.error.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    }
  });
});
