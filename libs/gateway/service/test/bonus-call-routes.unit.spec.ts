/**
 * The bonus-call routes: registration decided in the gateway on the real event store (what it
 * appends, for whom, and how it answers), cancel and the queries against a ledger stand-in on the
 * real bus (what the gateway sends, scoped to the caller, and how it answers each reply). The rules
 * the ledger decides are tested with the real ledger in the integration tests.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  apiTokenDigest,
  bonusRequestStream,
  cancelBonusCallResponse,
  errorEnvelope,
  errorReply,
  getBonusCallResponse,
  listBonusCallsResponse,
  okReply,
  playerBonusStream,
  registerBonusCallResponse,
  type BonusRequestMessage,
  type ErrorCode,
} from '@reelstream/contracts';
import { initTelemetry, traceEventStore, traceMessageBus, type Telemetry } from '@reelstream/platform-telemetry';
import { startHarness, type Harness } from './support/harness.js';
import type { HttpClient } from './support/http-client.js';
import { startLedgerStandIn, type LedgerStandIn } from './support/ledger-stand-in.js';
import { TOKENS } from './support/operators.js';
import { bonusRecord } from './support/records.js';

let telemetry: Telemetry;
let harness: Harness;
let ledger: LedgerStandIn;
let a: HttpClient;
let b: HttpClient;

const registerBody = {
  platformId: 'promo-1',
  providerId: 1,
  gameId: [102, 101],
  playerId: 'player_1',
  bonusType: 1,
  callAmount: 50,
  expireAt: '2026-06-30 23:59:59',
  metaData: { spinAmount: 10, baseBetAmount: 0.2 },
};

/** Answers every command as a well-behaved ledger would, from the stand-in's point of view. */
function defaultAnswer(message: BonusRequestMessage): unknown {
  switch (message.type) {
    case 'CancelBonusCall':
      return okReply({ issueId: message.data.issueId ?? 78, alreadyCanceled: false });
    case 'GetBonusCall':
      return okReply(bonusRecord({ issueId: message.data.issueId ?? 1, operatorId: message.data.operatorId }));
    case 'ListBonusCalls':
      return okReply({ items: [bonusRecord({ operatorId: message.data.operatorId })], nextCursor: null });
  }
}

beforeAll(async () => {
  telemetry = initTelemetry({ serviceName: 'gateway-test', instrumentHttp: false, env: {} });
  harness = await startHarness({
    config: { ledgerTimeoutMs: 300 },
    wrapBus: (bus) => traceMessageBus(bus),
    wrapStore: (store) => traceEventStore(store),
  });
  ledger = await startLedgerStandIn(await harness.openBus('ledger-stand-in'), defaultAnswer);
  a = harness.http.withToken(TOKENS.a);
  b = harness.http.withToken(TOKENS.b);
});
afterAll(async () => {
  await ledger.stop();
  await harness.close();
  await telemetry.shutdown();
});
beforeEach(() => {
  ledger.answerWith(defaultAnswer);
  ledger.received.length = 0;
  ledger.headers.length = 0;
});

describe('POST /v1/bonus-call/register (decided in the gateway, ADR 0011)', () => {
  let player = 0;
  /** The register body for a player of its own, on a platformId of its own. */
  const fresh = (overrides: Record<string, unknown> = {}) => {
    player += 1;
    return { ...registerBody, platformId: `promo-${player}`, playerId: `player_${player}`, ...overrides };
  };
  const streamOf = (operatorId: string, input: { platformId: string; playerId: string }) =>
    Promise.all([
      harness.store.readStream(bonusRequestStream(operatorId, input.platformId)),
      harness.store.readStream(playerBonusStream(operatorId, input.playerId)),
    ]);

  it('appends the guard and the registration for the caller in minor units and UTC, without asking the ledger', async () => {
    const input = fresh();
    const response = await a.post('/v1/bonus-call/register', input, { headers: { 'x-request-id': 'register-1' } });
    expect(response.status).toBe(200);
    const { issueId } = registerBonusCallResponse.parse(response.body).data;
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(ledger.received).toEqual([]);
    const [guard, stream] = await streamOf('casino-a', input);
    expect(guard.map((event) => [event.type, event.data])).toEqual([
      [
        'BonusRequestAccepted',
        expect.objectContaining({
          issueId,
          playerId: input.playerId,
          requestHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        }),
      ],
    ]);
    expect(stream.map((event) => event.type)).toEqual(['BonusCallRegistered']);
    expect(stream[0]?.data).toMatchObject({
      issueId,
      operatorId: 'casino-a',
      platformId: input.platformId,
      playerId: input.playerId,
      providerId: 1,
      gameIds: [102, 101],
      bonusType: 1,
      currency: 'EUR',
      callAmountMinor: 5_000,
      spinAmount: 10,
      baseBetAmountMinor: 20,
      expireAt: '2026-06-30T23:59:59.000Z',
    });
    // The request's id and trace ride on both events: the ledger's relay continues the trace from them.
    for (const event of [...guard, ...stream]) {
      expect(event.metadata).toMatchObject({ correlationId: 'register-1', operatorId: 'casino-a' });
      expect(event.metadata?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    }
  });

  it("reads expireAt in the operator's zone and amounts in its currency (Seoul, KRW)", async () => {
    const input = fresh({ callAmount: 50_000, metaData: { spinAmount: 5, baseBetAmount: 200 } });
    expect((await b.post('/v1/bonus-call/register', input)).status).toBe(200);
    const [, stream] = await streamOf('casino-b', input);
    expect(stream[0]?.data).toMatchObject({
      operatorId: 'casino-b',
      currency: 'KRW',
      callAmountMinor: 50_000,
      baseBetAmountMinor: 200,
      expireAt: '2026-06-30T14:59:59.000Z',
    });
  });

  it('answers the same registration written differently (alias, word, game order) with the same issueId and Idempotent-Replayed: true, appending nothing', async () => {
    const input = fresh();
    const first = await a.post('/v1/bonus-call/register', input);
    const events = await harness.eventCount();
    const { platformId, ...rest } = input;
    for (const resend of [
      input,
      { ...rest, issueId: platformId, bonusType: 'freespin', gameId: [101, 102], callAmount: 50.0 },
    ]) {
      const again = await a.post('/v1/bonus-call/register', resend);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await harness.eventCount()).toBe(events);
  });

  it('answers PLATFORM_ID_CONFLICT (another body) and ACTIVE_BONUS_EXISTS (another platformId) with 409 and the envelope, appending nothing', async () => {
    const input = fresh();
    await a.post('/v1/bonus-call/register', input);
    const events = await harness.eventCount();
    const conflict = await a.post('/v1/bonus-call/register', { ...input, callAmount: 50.01 });
    expect(conflict.status).toBe(409);
    expect(errorEnvelope.parse(conflict.body).error.code).toBe('PLATFORM_ID_CONFLICT');
    const second = await a.post('/v1/bonus-call/register', { ...input, platformId: `${input.platformId}-b` });
    expect(second.status).toBe(409);
    expect(errorEnvelope.parse(second.body).error.code).toBe('ACTIVE_BONUS_EXISTS');
    expect(await harness.eventCount()).toBe(events);
  });

  it('keeps players per operator: the same playerId of another operator registers', async () => {
    // 1 EUR and 1,000 KRW: a base bet each operator's currency and limits allow.
    const input = fresh({ callAmount: 1_000, metaData: { spinAmount: 1, baseBetAmount: 1 } });
    const mine = await a.post('/v1/bonus-call/register', input);
    const theirs = await b.post('/v1/bonus-call/register', {
      ...input,
      metaData: { spinAmount: 1, baseBetAmount: 1_000 },
    });
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.body.data.issueId).not.toBe(mine.body.data.issueId);
  });

  it('appends nothing and asks no one for a request the gateway refuses', async () => {
    const events = await harness.eventCount();
    expect((await a.post('/v1/bonus-call/register', fresh({ playerId: 'bad id' }))).status).toBe(400);
    expect((await a.post('/v1/bonus-call/register', fresh({ callAmount: 0.001 }))).status).toBe(400);
    expect((await a.post('/v1/bonus-call/register', fresh({ bonusType: 2 }))).status).toBe(422);
    expect((await a.post('/v1/bonus-call/register', fresh({ expireAt: '2026-04-30 23:59:59' }))).status).toBe(422);
    expect(await harness.eventCount()).toBe(events);
    expect(ledger.received).toHaveLength(0);
  });
});

describe('POST /v1/bonus-call/cancel', () => {
  it.each([
    ['an issueId number', { issueId: 4_503_599_627_370_497 }, { issueId: 4_503_599_627_370_497 }],
    ['an issueId string of digits', { issueId: '4503599627370497' }, { issueId: 4_503_599_627_370_497 }],
    ['a platformId', { platformId: 'promo-1' }, { platformId: 'promo-1' }],
  ])('sends CancelBonusCall for the caller by %s', async (_name, body, ref) => {
    ledger.answerWith(() => okReply({ issueId: 4_503_599_627_370_497, alreadyCanceled: false }));
    const response = await a.post('/v1/bonus-call/cancel', body);
    expect(response.status).toBe(200);
    expect(cancelBonusCallResponse.parse(response.body).data).toEqual({
      issueId: 4_503_599_627_370_497,
      status: 'canceled',
    });
    expect(ledger.received[0]).toMatchObject({ type: 'CancelBonusCall', data: { operatorId: 'casino-a', ...ref } });
  });

  it('answers a cancel of an already canceled bonus call with 200 (D14)', async () => {
    ledger.answerWith(() => okReply({ issueId: 9, alreadyCanceled: true }));
    const response = await a.post('/v1/bonus-call/cancel', { issueId: 9 });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ issueId: 9, status: 'canceled' });
  });

  it.each<[ErrorCode, number]>([
    ['BONUS_NOT_FOUND', 404],
    ['BONUS_ALREADY_COMPLETED', 409],
    ['BONUS_EXPIRED', 409],
  ])("answers the ledger's %s with %i", async (code, status) => {
    ledger.answerWith(() => errorReply(code, 'ledger says no'));
    const response = await a.post('/v1/bonus-call/cancel', { issueId: 9 });
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
  });

  it.each([
    ['both ids', { issueId: 9, platformId: 'promo-1' }],
    ['neither id', {}],
    ['an issueId with a leading zero', { issueId: '09' }],
    ['a negative issueId', { issueId: -9 }],
    ['an issueId beyond 2^53 - 1', { issueId: 9_007_199_254_740_992 }],
    ['an unknown field', { issueId: 9, reason: 'x' }],
  ])('refuses %s with 400 before the ledger', async (_name, body) => {
    const response = await a.post('/v1/bonus-call/cancel', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(ledger.received).toHaveLength(0);
  });
});

describe('GET /v1/bonus-call/{issueId}', () => {
  it('sends GetBonusCall for the caller and shows the record in currency units', async () => {
    const response = await a.get('/v1/bonus-call/4503599627370497');
    expect(response.status).toBe(200);
    const data = getBonusCallResponse.parse(response.body).data;
    expect(data).toMatchObject({
      issueId: 4_503_599_627_370_497,
      callAmount: 50,
      baseBetAmount: 0.2,
      totalWin: 1.6,
      winCapLeft: 48.4,
      status: 'active',
      currency: 'EUR',
    });
    expect(data).not.toHaveProperty('operatorId');
    expect(ledger.received[0]).toMatchObject({
      type: 'GetBonusCall',
      data: { operatorId: 'casino-a', issueId: 4_503_599_627_370_497 },
    });
  });

  it("answers 404 BONUS_NOT_FOUND when the ledger ever returned another operator's record (D18)", async () => {
    ledger.answerWith(() => okReply(bonusRecord({ operatorId: 'casino-b' })));
    const response = await a.get('/v1/bonus-call/4503599627370497');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('BONUS_NOT_FOUND');
  });

  it.each(['abc', '0', '012', '-5', '9007199254740992', '1.5'])(
    'refuses the issueId %s with 400 before the ledger',
    async (issueId) => {
      const response = await a.get(`/v1/bonus-call/${issueId}`);
      expect(response.status).toBe(400);
      expect(response.body.error.details[0].path).toBe('issueId');
      expect(ledger.received).toHaveLength(0);
    },
  );
});

describe('GET /v1/bonus-call', () => {
  it('sends ListBonusCalls with the filters and the default page size, and answers the page', async () => {
    ledger.answerWith(() =>
      okReply({
        items: [bonusRecord(), bonusRecord({ issueId: 5, status: 'canceled', canceledAt: '2026-05-02T00:00:00.000Z' })],
        nextCursor: 'NQ',
      }),
    );
    const response = await a.get('/v1/bonus-call?playerId=player_1&status=active');
    expect(response.status).toBe(200);
    const page = listBonusCallsResponse.parse(response.body).data;
    expect(page.items).toHaveLength(2);
    expect(page.items[1]).toMatchObject({ issueId: 5, status: 'canceled', canceledAt: '2026-05-02T00:00:00.000Z' });
    expect(page.nextCursor).toBe('NQ');
    expect(ledger.received[0]?.data).toEqual({
      operatorId: 'casino-a',
      playerId: 'player_1',
      status: 'active',
      limit: 50,
    });
  });

  it('reads empty parameters as not given (`?playerId=&platformId=&status=`)', async () => {
    const response = await a.get('/v1/bonus-call?playerId=&platformId=&status=active&cursor=');
    expect(response.status).toBe(200);
    expect(ledger.received[0]?.data).toEqual({ operatorId: 'casino-a', status: 'active', limit: 50 });
  });

  it('passes platformId, limit and cursor', async () => {
    await a.get('/v1/bonus-call?platformId=promo-1&limit=100&cursor=NQ');
    expect(ledger.received[0]?.data).toEqual({
      operatorId: 'casino-a',
      platformId: 'promo-1',
      limit: 100,
      cursor: 'NQ',
    });
  });

  it.each([
    ['an unknown status', '?status=done'],
    ['a limit of 0', '?limit=0'],
    ['a limit of 101', '?limit=101'],
    ['an unknown parameter', '?player=player_1'],
    ['a repeated parameter', '?playerId=a&playerId=b'],
    ['a playerId of 51 characters', `?playerId=${'p'.repeat(51)}`],
  ])('refuses %s with 400 before the ledger', async (_name, query) => {
    const response = await a.get(`/v1/bonus-call${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(ledger.received).toHaveLength(0);
  });

  it("answers 503 INTERNAL rather than show another operator's bonus call the ledger listed", async () => {
    ledger.answerWith(() => okReply({ items: [bonusRecord({ operatorId: 'casino-b' })], nextCursor: null }));
    const response = await a.get('/v1/bonus-call');
    expect(response.status).toBe(503);
    expect(response.text).not.toContain('casino-b');
  });
});

describe('tenancy of the commands', () => {
  it('names the operator of the token in every command, whatever the body says', async () => {
    expect(apiTokenDigest(TOKENS.b)).toMatch(/^[0-9a-f]{64}$/);
    await b.post('/v1/bonus-call/cancel', { platformId: 'promo-1' });
    await b.get('/v1/bonus-call/12');
    await b.get('/v1/bonus-call');
    expect(ledger.received.map((message) => [message.data.operatorId, message.metadata.operatorId])).toEqual([
      ['casino-b', 'casino-b'],
      ['casino-b', 'casino-b'],
      ['casino-b', 'casino-b'],
    ]);
    const smuggled = await b.post('/v1/bonus-call/cancel', { platformId: 'promo-1', operatorId: 'casino-a' });
    expect(smuggled.status).toBe(400);
    expect(smuggled.body.error.details).toEqual([{ path: 'operatorId', message: 'unknown field "operatorId"' }]);
  });
});
