/**
 * Campaigns end to end (docs/adr/0010-campaigns.md): the gateway beside the real
 * bonus-ledger on one embedded store. A campaign of 200 players, some holding an active bonus,
 * completes with those refused as a single registration refuses them; a resent POST is answered the
 * same, another body under the same campaignId is a conflict; a bad request stores nothing; the
 * ledger stopped mid-campaign resumes it without registering anyone twice; another operator's
 * campaign is the same 404 as an unknown one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  campaignProgressResponse,
  errorEnvelope,
  HttpHeaders,
  parseStoredEvent,
  playerBonusStream,
  startCampaignResponse,
  type PlayerBonusEvent,
} from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import type { HttpClient } from './support/http-client.js';
import { OPERATOR_IDS, TOKENS } from './support/operators.js';
import { campaignBody, expectRegistered, freeSpinBodies } from './support/registrations.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let a: HttpClient;
let b: HttpClient;

beforeAll(async () => {
  stack = await startStack();
  a = stack.http.withToken(TOKENS.a);
  b = stack.http.withToken(TOKENS.b);
});
afterAll(async () => {
  await stack.close();
});

const CAMPAIGNS = '/v1/bonus-call/campaigns';

const playersOf = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

async function progress(client: HttpClient, campaignId: string, query = '') {
  const response = await client.get(`${CAMPAIGNS}/${campaignId}${query}`);
  expect(response.status).toBe(200);
  return campaignProgressResponse.parse(response.body).data;
}

async function completed(client: HttpClient, campaignId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const read = await progress(client, campaignId);
    if (read.state === 'completed') return read;
    if (Date.now() > deadline) throw new Error(`campaign ${campaignId} did not complete: ${JSON.stringify(read)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every bonus call registered for the player at operator A, by platformId. */
async function registrationsOf(playerId: string, operatorId: string = OPERATOR_IDS.a) {
  const stored = await stack.store.readStream(playerBonusStream(operatorId, playerId));
  return stored
    .map((event) => parseStoredEvent(event) as PlayerBonusEvent)
    .flatMap((event) => (event.type === 'BonusCallRegistered' ? [event.data.platformId] : []));
}

describe('POST /v1/bonus-call/campaigns and its progress', () => {
  it('registers 200 players; the holders of an active bonus are refused with ACTIVE_BONUS_EXISTS', async () => {
    const players = playersOf('camp_', 200);
    const holders = ['camp_3', 'camp_77', 'camp_150', 'camp_199'];
    const single = freeSpinBodies('own', 'unused_');
    for (const holder of holders) await expectRegistered(a, single({ playerId: holder }));

    const posted = await a.post(CAMPAIGNS, campaignBody('big-1', players));
    expect(posted.status).toBe(202);
    expect(startCampaignResponse.parse(posted.body).data).toEqual({ campaignId: 'big-1', total: 200 });
    expect(posted.headers.get(HttpHeaders.idempotentReplayed)).toBeNull();

    const done = await completed(a, 'big-1');
    expect(done).toMatchObject({ state: 'completed', total: 200, registered: 196, refused: 4, pending: 0 });
    expect(done.refusals.map((refusal) => refusal.playerId)).toEqual(holders);
    // The answer a single registration of the same player gets, code and message.
    for (const refusal of done.refusals) {
      const alone = await a.post('/v1/bonus-call/register', single({ playerId: refusal.playerId }));
      expect({ status: alone.status, code: alone.body.error.code, message: alone.body.message }).toEqual({
        status: 409,
        code: refusal.code,
        message: refusal.message,
      });
    }
    // Each registration is an ordinary bonus call under the platformId {campaignId}:{playerId}.
    const listed = await a.get(`/v1/bonus-call?platformId=${encodeURIComponent('big-1:camp_0')}`);
    expect(listed.body.data.items).toMatchObject([{ playerId: 'camp_0', status: 'active', spinAmount: 10 }]);
    for (const player of players)
      expect(await registrationsOf(player)).toEqual(
        holders.includes(player) ? ['own-' + String(holders.indexOf(player) + 1)] : [`big-1:${player}`],
      );

    // Paging of the refusals.
    const page1 = await progress(a, 'big-1', '?limit=3');
    expect(page1.refusals.map((refusal) => refusal.playerId)).toEqual(holders.slice(0, 3));
    const page2 = await progress(a, 'big-1', `?limit=3&cursor=${page1.nextCursor}`);
    expect({ players: page2.refusals.map((refusal) => refusal.playerId), next: page2.nextCursor }).toEqual({
      players: holders.slice(3),
      next: null,
    });
  });

  it('answers a resent campaign the same, and refuses another body under its campaignId', async () => {
    const body = campaignBody('again', playersOf('again_', 5));
    expect((await a.post(CAMPAIGNS, body)).status).toBe(202);
    const resent = await a.post(CAMPAIGNS, body);
    expect({ status: resent.status, replayed: resent.headers.get(HttpHeaders.idempotentReplayed) }).toEqual({
      status: 202,
      replayed: 'true',
    });
    expect(resent.body.data).toEqual({ campaignId: 'again', total: 5 });
    const other = await a.post(CAMPAIGNS, { ...body, callAmount: 51 });
    expect({ status: other.status, code: other.body.error?.code }).toEqual({
      status: 409,
      code: 'CAMPAIGN_ID_CONFLICT',
    });
    errorEnvelope.parse(other.body);
    const done = await completed(a, 'again');
    expect(done).toMatchObject({ registered: 5, refused: 0 });
    for (const player of playersOf('again_', 5)) expect(await registrationsOf(player)).toEqual([`again:${player}`]);
  });

  it('starts a campaign once when the same POST races itself, and refuses a racing other body', async () => {
    const body = campaignBody('race', playersOf('race_', 3));
    const same = await Promise.all([a.post(CAMPAIGNS, body), a.post(CAMPAIGNS, body), a.post(CAMPAIGNS, body)]);
    expect(same.map((response) => response.status)).toEqual([202, 202, 202]);
    expect(same.filter((response) => response.headers.get(HttpHeaders.idempotentReplayed) === 'true')).toHaveLength(2);
    const racing = await Promise.all([
      a.post(CAMPAIGNS, campaignBody('race-2', ['race_x'])),
      a.post(CAMPAIGNS, campaignBody('race-2', ['race_y'])),
    ]);
    expect(racing.map((response) => response.status).sort()).toEqual([202, 409]);
    await completed(a, 'race');
    await completed(a, 'race-2');
    for (const player of playersOf('race_', 3)) expect(await registrationsOf(player)).toEqual([`race:${player}`]);
  });

  it.each([
    ['a bad playerId in the list', { players: ['ok_1', 'not ok', 'ok_2'] }, 400, 'VALIDATION_FAILED', 'players[1]'],
    ['a player listed twice', { players: ['dup_1', 'dup_1'] }, 400, 'VALIDATION_FAILED', 'players'],
    ['no players', { players: [] }, 400, 'VALIDATION_FAILED', 'players'],
    ['10,001 players', { players: playersOf('many_', 10_001) }, 400, 'VALIDATION_FAILED', 'players'],
    ['a playerId field (the players list names them)', { playerId: 'p1' }, 400, 'VALIDATION_FAILED', undefined],
    ['a campaignId of 14 characters', { campaignId: 'c'.repeat(14) }, 400, 'VALIDATION_FAILED', 'campaignId'],
    ['a campaignId with a colon', { campaignId: 'a:b' }, 400, 'VALIDATION_FAILED', 'campaignId'],
    ['an unknown provider', { providerId: 99 }, 422, 'PROVIDER_NOT_FOUND', undefined],
    ['a base bet one game does not offer', { gameId: [101, 103] }, 422, 'BET_LEVEL_NOT_AVAILABLE', undefined],
    ['expireAt in the past', { expireAt: '2020-01-01 00:00:00' }, 422, 'EXPIRE_AT_IN_PAST', 'expireAt'],
    ['too many decimals', { callAmount: 1.001 }, 400, 'AMOUNT_PRECISION', 'callAmount'],
    [
      'bonusType 2 without the feature',
      { bonusType: 2, metaData: undefined },
      422,
      'BONUS_TYPE_UNAVAILABLE',
      undefined,
    ],
  ])('refuses %s and stores nothing', async (_case, overrides, status, code, path) => {
    const body = { ...campaignBody('bad', ['bad_1', 'bad_2']), ...overrides } as Record<string, unknown>;
    const response = await a.post(CAMPAIGNS, body);
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
    if (path !== undefined)
      expect(errorEnvelope.parse(response.body).error.details?.map((detail) => detail.path)).toContain(path);
    const campaignId =
      typeof body['campaignId'] === 'string' && /^[A-Za-z0-9_.-]{1,13}$/.test(body['campaignId'])
        ? body['campaignId']
        : 'bad';
    expect((await a.get(`${CAMPAIGNS}/${campaignId}`)).status).toBe(404);
  });

  it('resumes a campaign after the ledger stops mid-way, registering no one twice', async () => {
    const players = playersOf('resume_', 200);
    expect((await a.post(CAMPAIGNS, campaignBody('resume', players))).status).toBe(202);
    await eventually(async () => expect((await progress(a, 'resume')).registered).toBeGreaterThan(0), 30_000, 5);
    await stack.stopLedger();
    const halfway = await progress(a, 'resume');
    await stack.startLedger();
    const done = await completed(a, 'resume');
    expect(done).toMatchObject({ registered: 200, refused: 0, pending: 0 });
    expect(halfway).toMatchObject({ state: 'running', registered: 100, pending: 100 });
    for (const player of players) expect(await registrationsOf(player)).toEqual([`resume:${player}`]);
  });
});

describe('campaign tenancy', () => {
  it("reads another operator's campaign as the same 404 as an unknown one", async () => {
    expect((await a.post(CAMPAIGNS, campaignBody('mine', ['shared_player']))).status).toBe(202);
    await completed(a, 'mine');
    const foreign = await b.get(`${CAMPAIGNS}/mine`);
    const unknown = await b.get(`${CAMPAIGNS}/never`);
    expect({ status: foreign.status, body: foreign.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect({ status: foreign.status, code: foreign.body.error.code }).toEqual({
      status: 404,
      code: 'CAMPAIGN_NOT_FOUND',
    });
  });

  it('keeps the same campaignId of two operators apart, each for its own players', async () => {
    // Operator B (KRW, Seoul, regular bonus calls) starts "mine" too: its own campaign, not a conflict with A's.
    const ofB = await b.post(CAMPAIGNS, {
      campaignId: 'mine',
      players: ['shared_player'],
      providerId: 2,
      gameId: 201,
      bonusType: 2,
      callAmount: 1000,
      expireAt: '2026-06-30 23:59:59',
    });
    expect(ofB.status).toBe(202);
    expect(ofB.headers.get(HttpHeaders.idempotentReplayed)).toBeNull();
    const done = await completed(b, 'mine');
    expect(done).toMatchObject({ registered: 1, refused: 0 });
    expect(await registrationsOf('shared_player', OPERATOR_IDS.b)).toEqual(['mine:shared_player']);
    expect(await registrationsOf('shared_player', OPERATOR_IDS.a)).toEqual(['mine:shared_player']);
  });
});
