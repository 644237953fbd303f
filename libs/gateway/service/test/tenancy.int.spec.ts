/**
 * Tenancy (decisions.md D18) with the real ledger: operator B can neither read, cancel nor list
 * operator A's bonus calls — each is a 404 or an empty list, exactly as for a bonus call that
 * does not exist — and a missing, malformed or unknown token is a 401 on every endpoint.
 * (That tokens are compared as SHA-256 digests by crypto.timingSafeEqual: auth-digest.unit.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiOperations, errorEnvelope } from '@reelstream/contracts';
import type { HttpClient } from './support/http-client.js';
import { TOKENS } from './support/operators.js';
import { campaignBody } from './support/registrations.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let a: HttpClient;
let b: HttpClient;
let issueId: number;

const registration = {
  platformId: 'shared-platform-id',
  providerId: 1,
  gameId: 101,
  playerId: 'shared_player',
  bonusType: 1,
  callAmount: 5,
  expireAt: '2026-06-30 23:59:59',
  metaData: { spinAmount: 3, baseBetAmount: 0.2 },
};

beforeAll(async () => {
  stack = await startStack();
  a = stack.http.withToken(TOKENS.a);
  b = stack.http.withToken(TOKENS.b);
  const registered = await a.post('/v1/bonus-call/register', registration);
  expect(registered.status).toBe(200);
  issueId = registered.body.data.issueId;
});
afterAll(async () => {
  await stack.close();
});

describe("operator B and operator A's bonus call", () => {
  it('cannot read it: 404 BONUS_NOT_FOUND, the same answer as for an id that does not exist', async () => {
    const theirs = await b.get(`/v1/bonus-call/${issueId}`);
    const nobodys = await b.get(`/v1/bonus-call/${issueId + 1}`);
    expect(theirs.status).toBe(404);
    expect(nobodys.status).toBe(404);
    const withoutId = (body: { message: string }, id: number) => ({
      ...body,
      message: body.message.replace(String(id), '{issueId}'),
    });
    expect(withoutId(theirs.body, issueId)).toEqual(withoutId(nobodys.body, issueId + 1));
    expect(theirs.body.error.code).toBe('BONUS_NOT_FOUND');
    expect(theirs.text).not.toContain('shared_player');
  });

  it('cannot cancel it by issueId or by platformId: 404, and it stays active', async () => {
    for (const ref of [{ issueId }, { issueId: String(issueId) }, { platformId: registration.platformId }]) {
      const response = await b.post('/v1/bonus-call/cancel', ref);
      expect(response.status).toBe(404);
      expect(errorEnvelope.parse(response.body).error.code).toBe('BONUS_NOT_FOUND');
    }
    expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data.status).toBe('active');
  });

  it('cannot list it, with or without filters', async () => {
    for (const query of [
      '',
      '?playerId=shared_player',
      `?platformId=${registration.platformId}`,
      '?status=active',
      '?limit=100',
    ]) {
      const response = await b.get(`/v1/bonus-call${query}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ items: [], nextCursor: null });
    }
    const mine = await a.get('/v1/bonus-call?playerId=shared_player');
    expect(mine.body.data.items.map((item: { issueId: number }) => item.issueId)).toEqual([issueId]);
  });

  it("does not collide with it: B's registration with the same platformId and player is B's own", async () => {
    const response = await b.post('/v1/bonus-call/register', {
      ...registration,
      callAmount: 5_000,
      metaData: { spinAmount: 3, baseBetAmount: 200 },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    const own = response.body.data.issueId as number;
    expect(own).not.toBe(issueId);
    expect((await b.get(`/v1/bonus-call/${own}`)).body.data).toMatchObject({ currency: 'KRW', status: 'active' });
    expect((await a.get(`/v1/bonus-call/${own}`)).status).toBe(404);
    // B cancels its own by the shared platformId; A's is untouched.
    expect((await b.post('/v1/bonus-call/cancel', { platformId: registration.platformId })).body.data).toEqual({
      issueId: own,
      status: 'canceled',
    });
    expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data.status).toBe('active');
  });
});

describe('401 UNAUTHORIZED on every endpoint', () => {
  const endpoints: [string, string, unknown][] = [
    ['POST', '/v1/bonus-call/register', registration],
    ['POST', '/v1/bonus-call/cancel', { platformId: registration.platformId }],
    ['GET', '/v1/bonus-call/1', undefined],
    ['GET', '/v1/bonus-call?playerId=shared_player', undefined],
    [
      'POST',
      '/v1/game/launch',
      {
        playerId: 'p',
        providerId: 1,
        gameId: 101,
        language: 'en',
        returnUrl: 'https://casino-a.example/',
        isStreamer: false,
      },
    ],
    ['GET', '/v1/providers', undefined],
    ['GET', '/v1/games', undefined],
    ['GET', '/v1/rounds/1', undefined],
    ['GET', '/v1/transactions?playerId=shared_player', undefined],
    ['GET', '/v1/wallet/dead-letters', undefined],
    ['POST', '/v1/wallet/dead-letters/1/redrive', undefined],
    ['POST', '/v1/bonus-call/campaigns', campaignBody('tenancy', ['shared_player'])],
    ['GET', '/v1/bonus-call/campaigns/tenancy', undefined],
    ['GET', '/v1/webhooks/dead-letters', undefined],
    ['POST', '/v1/webhooks/dead-letters/bw-00000000-0000-4000-8000-000000000000/redrive', undefined],
    ['GET', '/v1/wallet/health', undefined],
  ];
  /** The operation path of a concrete one: ids back to their placeholders. */
  const template = (path: string) =>
    path
      .replace(/\?.*$/, '')
      .replace(/^\/v1\/bonus-call\/1$/, '/v1/bonus-call/{issueId}')
      .replace(/^\/v1\/bonus-call\/campaigns\/tenancy$/, '/v1/bonus-call/campaigns/{campaignId}')
      .replace(/^\/v1\/rounds\/1$/, '/v1/rounds/{roundId}')
      .replace(/\/wallet\/dead-letters\/1\//, '/wallet/dead-letters/{transactionId}/')
      .replace(/\/webhooks\/dead-letters\/bw-[0-9a-f-]+\//, '/webhooks/dead-letters/{eventId}/');
  const tokens: [string, Record<string, string>][] = [
    ['a missing token', {}],
    ['a malformed header', { authorization: `Token ${TOKENS.a}` }],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    ['an unknown token', { authorization: 'Bearer not-a-token-of-anyone-0000' }],
    ['a digest instead of the token', { authorization: `Bearer ${'0'.repeat(64)}` }],
  ];

  it('lists every operation of the API', () => {
    expect(new Set(endpoints.map(([, path]) => template(path)))).toEqual(
      new Set(Object.values(ApiOperations).map((operation) => operation.path)),
    );
  });

  it.each(endpoints)('%s %s refuses every bad token with 401 and changes nothing', async (method, path, body) => {
    const events = await stack.eventCount();
    for (const [name, headers] of tokens) {
      const response = await stack.http.call(method, path, {
        token: null,
        headers,
        ...(body === undefined ? {} : { json: body }),
      });
      expect({ name, status: response.status, code: response.body?.error?.code }).toEqual({
        name,
        status: 401,
        code: 'UNAUTHORIZED',
      });
    }
    expect(await stack.eventCount()).toBe(events);
  });
});
