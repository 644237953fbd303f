/**
 * POST /v1/bonus-call/register over HTTP with the real bonus-ledger: each rule of spec §2.1 and
 * §8 at its boundary values, every error code the endpoint answers, and D17's idempotency.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { playerBonusStream } from '@reelstream/contracts';
import type { HttpClient } from './support/http-client.js';
import { TOKENS } from './support/operators.js';
import { expectRefused, expectRegistered, freeSpinBodies } from './support/registrations.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let a: HttpClient;
let b: HttpClient;
let c: HttpClient;

beforeAll(async () => {
  stack = await startStack();
  a = stack.http.withToken(TOKENS.a);
  b = stack.http.withToken(TOKENS.b);
  c = stack.http.withToken(TOKENS.c);
});
afterAll(async () => {
  await stack.close();
});

/** A valid Free Spin Bonus for a player nobody used yet. */
const body = freeSpinBodies('reg', 'player_');

describe('success', () => {
  it('registers a Free Spin Bonus and stores it in the ledger as the operator sent it', async () => {
    const input = body({ callAmount: 12.34, metaData: { spinAmount: 7, baseBetAmount: 0.4 } });
    const issueId = await expectRegistered(a, input);
    const status = await a.get(`/v1/bonus-call/${issueId}`);
    expect(status.body.data).toMatchObject({
      issueId,
      platformId: input['platformId'],
      playerId: input['playerId'],
      providerId: 1,
      gameIds: [101, 102],
      bonusType: 1,
      currency: 'EUR',
      callAmount: 12.34,
      spinAmount: 7,
      baseBetAmount: 0.4,
      spinsLeft: 7,
      status: 'active',
      expireAt: '2026-06-30T23:59:59.000Z',
    });
  });

  it('accepts the issueId alias for platformId (D1) and the words for bonusType (D2)', async () => {
    const { platformId, ...rest } = body({ bonusType: 'freeSpin', gameId: 101 });
    const issueId = await expectRegistered(a, { ...rest, issueId: platformId });
    expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data).toMatchObject({
      platformId,
      bonusType: 1,
      gameIds: [101],
    });
  });

  it('registers a Regular Bonus Call without metaData for an operator with the feature (D3, spec §4.1 rule 2)', async () => {
    const { metaData: _none, ...regular } = body({ bonusType: 2, callAmount: 30_000 });
    const issueId = await expectRegistered(b, regular);
    expect((await b.get(`/v1/bonus-call/${issueId}`)).body.data).toMatchObject({
      bonusType: 2,
      currency: 'KRW',
      callAmount: 30_000,
      spinAmount: null,
      baseBetAmount: null,
    });
  });
});

describe('spec §2.1 and §8 at their boundaries', () => {
  it.each([
    [1, 200],
    [100, 200],
    [0, 400],
    [101, 400],
    [1.5, 400],
    [-1, 400],
  ])('metaData.spinAmount %d answers %i (1 to 100 free spins)', async (spinAmount, status) => {
    const input = body({ metaData: { spinAmount, baseBetAmount: 0.2 } });
    if (status === 200) await expectRegistered(a, input);
    else await expectRefused(a, input, 400, 'VALIDATION_FAILED', 'metaData.spinAmount');
  });

  it('requires metaData with spinAmount and baseBetAmount when bonusType is 1 (spec §4.1 rule 1)', async () => {
    const { metaData: _none, ...withoutMetaData } = body();
    await expectRefused(a, withoutMetaData, 400, 'VALIDATION_FAILED', 'metaData');
    await expectRefused(a, body({ metaData: { spinAmount: 5 } }), 400, 'VALIDATION_FAILED', 'metaData.baseBetAmount');
    await expectRefused(a, body({ metaData: { baseBetAmount: 1 } }), 400, 'VALIDATION_FAILED', 'metaData.spinAmount');
    await expectRefused(
      a,
      body({ metaData: { spinAmount: 5, baseBetAmount: 0 } }),
      400,
      'VALIDATION_FAILED',
      'metaData.baseBetAmount',
    );
    await expectRefused(
      a,
      body({ metaData: { spinAmount: 5, baseBetAmount: 1, extra: 1 } }),
      400,
      'VALIDATION_FAILED',
      'metaData.extra',
    );
  });

  it.each([
    ['a 64-character platformId', 'P'.repeat(64), 200],
    ['a 1-character platformId', 'Z', 200],
    ['a 65-character platformId', 'p'.repeat(65), 400],
    ['an empty platformId', '', 400],
    ['a platformId with a leading space', ' p-1', 400],
    ['a platformId with a non-ASCII letter', 'prómo', 400],
  ])('%s (%j) answers %i', async (_name, platformId, status) => {
    const input = body({ platformId });
    if (status === 200) await expectRegistered(a, input);
    else await expectRefused(a, input, 400, 'VALIDATION_FAILED', 'platformId');
  });

  it('requires platformId (or its alias), and refuses the alias when it differs (D1)', async () => {
    const { platformId: _none, ...withoutId } = body();
    await expectRefused(a, withoutId, 400, 'VALIDATION_FAILED', 'platformId');
    await expectRefused(a, body({ issueId: 'other-id' }), 400, 'VALIDATION_FAILED', 'issueId');
  });

  it.each([
    ['50 characters', 'p'.repeat(50), 200],
    ['51 characters', 'p'.repeat(51), 400],
    ['no characters', '', 400],
    ['a dash', 'player-1', 400],
    ['a space', 'player 1', 400],
    ['a non-ASCII letter', 'plåyer', 400],
  ])('a playerId of %s (%j) answers %i', async (_name, playerId, status) => {
    const input = body({ playerId });
    if (status === 200) await expectRegistered(a, input);
    else await expectRefused(a, input, 400, 'VALIDATION_FAILED', 'playerId');
  });

  it.each([
    [0, 'bonusType'],
    [3, 'bonusType'],
    ['Bonus', 'bonusType'],
    ['1', 'bonusType'],
  ])('refuses bonusType %j', async (bonusType, path) => {
    await expectRefused(a, body({ bonusType }), 400, 'VALIDATION_FAILED', path);
  });

  it.each([
    ['0', 0],
    ['-1', -1],
    ['a string', '50'],
    ['above 10^11', 100_000_000_001],
  ])('refuses a callAmount of %s', async (_name, callAmount) => {
    await expectRefused(a, body({ callAmount }), 400, 'VALIDATION_FAILED', 'callAmount');
  });

  it('accepts the largest callAmount, 10^11 currency units, where the operator limit allows it (casino A is configured so)', async () => {
    await expectRegistered(a, body({ callAmount: 100_000_000_000 }));
  });

  it.each([
    ['0', 0],
    ['a string', '1'],
    ['a fraction', 1.5],
    ['above 2^53 - 1', 9_007_199_254_740_992],
  ])('refuses a providerId of %s', async (_name, providerId) => {
    await expectRefused(a, body({ providerId }), 400, 'VALIDATION_FAILED', 'providerId');
  });

  it('takes one gameId or a non-empty list of up to 100 distinct ones (D4)', async () => {
    await expectRefused(a, body({ gameId: [] }), 400, 'VALIDATION_FAILED', 'gameId');
    await expectRefused(a, body({ gameId: [101, 101] }), 400, 'VALIDATION_FAILED', 'gameId');
    await expectRefused(
      a,
      body({ gameId: Array.from({ length: 101 }, (_, index) => 1000 + index) }),
      400,
      'VALIDATION_FAILED',
      'gameId',
    );
    // 100 distinct ids pass the shape; they are not in the catalog.
    await expectRefused(
      a,
      body({ gameId: Array.from({ length: 100 }, (_, index) => 1000 + index) }),
      422,
      'GAME_NOT_FOUND',
      'gameId[0]',
    );
    await expectRefused(a, body({ gameId: [101, '102'] }), 400, 'VALIDATION_FAILED', 'gameId[1]');
  });

  it.each([
    ['an ISO timestamp', '2026-06-30T23:59:59'],
    ['a date only', '2026-06-30'],
    ['a day not on the calendar', '2026-02-30 12:00:00'],
    ['hour 24', '2026-06-30 24:00:00'],
    ['a leap second', '2026-06-30 23:59:60'],
  ])('refuses an expireAt with %s', async (_name, expireAt) => {
    await expectRefused(a, body({ expireAt }), 400, 'VALIDATION_FAILED', 'expireAt');
  });

  it('refuses unknown fields, naming each', async () => {
    const response = await a.post('/v1/bonus-call/register', body({ spins: 5, currencyCode: 'USD' }));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual(
      expect.arrayContaining([
        { path: 'spins', message: 'unknown field "spins"' },
        { path: 'currencyCode', message: 'unknown field "currencyCode"' },
      ]),
    );
  });
});

describe('amounts in the operator currency (D6)', () => {
  it('accepts the decimals of the currency and refuses one more with 400 AMOUNT_PRECISION', async () => {
    await expectRegistered(a, body({ callAmount: 10.01, metaData: { spinAmount: 1, baseBetAmount: 0.2 } }));
    await expectRefused(a, body({ callAmount: 10.001 }), 400, 'AMOUNT_PRECISION', 'callAmount');
    await expectRefused(
      a,
      body({ metaData: { spinAmount: 1, baseBetAmount: 0.005 } }),
      400,
      'AMOUNT_PRECISION',
      'metaData.baseBetAmount',
    );
    // Casino B is in KRW: no decimals at all.
    await expectRegistered(b, body({ callAmount: 5_000, metaData: { spinAmount: 1, baseBetAmount: 200 } }));
    await expectRefused(
      b,
      body({ callAmount: 5_000.5, metaData: { spinAmount: 1, baseBetAmount: 200 } }),
      400,
      'AMOUNT_PRECISION',
      'callAmount',
    );
  });
});

describe('catalog rules (D4, spec §4.1 rule 4)', () => {
  it('answers 422 PROVIDER_NOT_FOUND, GAME_NOT_FOUND, GAME_NOT_OF_PROVIDER and FREE_SPINS_NOT_SUPPORTED', async () => {
    await expectRefused(a, body({ providerId: 99 }), 422, 'PROVIDER_NOT_FOUND', 'providerId');
    await expectRefused(a, body({ gameId: 999 }), 422, 'GAME_NOT_FOUND', 'gameId');
    await expectRefused(a, body({ gameId: [101, 201] }), 422, 'GAME_NOT_OF_PROVIDER', 'gameId[1]');
    await expectRefused(a, body({ providerId: 2, gameId: [201, 203] }), 422, 'FREE_SPINS_NOT_SUPPORTED', 'gameId[1]');
  });
});

describe('bonus type (D3, spec §4.1 rule 5)', () => {
  it('answers 422 BONUS_TYPE_UNAVAILABLE for bonusType 2 unless the operator has the feature', async () => {
    await expectRefused(a, body({ bonusType: 2 }), 422, 'BONUS_TYPE_UNAVAILABLE', 'bonusType');
    await expectRefused(a, body({ bonusType: 'regular' }), 422, 'BONUS_TYPE_UNAVAILABLE', 'bonusType');
  });

  it('answers 422 REGULAR_BONUS_NOT_SUPPORTED for bonusType 2 on a game that cannot deliver it (the instant game), and registers nothing', async () => {
    const { metaData: _none, ...regular } = body({ bonusType: 2, callAmount: 30_000, providerId: 2 });
    const events = await stack.eventCount();
    await expectRefused(b, { ...regular, gameId: [201, 203] }, 422, 'REGULAR_BONUS_NOT_SUPPORTED', 'gameId[1]');
    await expectRefused(b, { ...regular, gameId: 203 }, 422, 'REGULAR_BONUS_NOT_SUPPORTED', 'gameId');
    expect(await stack.eventCount()).toBe(events);
    await expectRegistered(b, { ...regular, gameId: [201, 202] });
  });
});

describe('expireAt in the operator zone (D5)', () => {
  it('accepts one second after now and refuses now with 422 EXPIRE_AT_IN_PAST', async () => {
    // The stack's clock stands at 2026-05-01T00:00:00Z.
    await expectRefused(a, body({ expireAt: '2026-05-01 00:00:00' }), 422, 'EXPIRE_AT_IN_PAST', 'expireAt');
    await expectRegistered(a, body({ expireAt: '2026-05-01 00:00:01' }));
    // In Seoul (UTC+9) it is already 09:00.
    await expectRefused(
      b,
      body({ expireAt: '2026-05-01 09:00:00', callAmount: 1_000, metaData: { spinAmount: 1, baseBetAmount: 200 } }),
      422,
      'EXPIRE_AT_IN_PAST',
    );
    await expectRegistered(
      b,
      body({ expireAt: '2026-05-01 09:00:01', callAmount: 1_000, metaData: { spinAmount: 1, baseBetAmount: 200 } }),
    );
  });

  it('answers 422 EXPIRE_AT_NOT_IN_ZONE for a time the clocks of the zone skip', async () => {
    await expectRefused(c, body({ expireAt: '2027-03-14 02:30:00' }), 422, 'EXPIRE_AT_NOT_IN_ZONE', 'expireAt');
    await expectRegistered(c, body({ expireAt: '2027-03-14 03:30:00' }));
  });
});

describe('one active bonus call per player (spec §1, §4.1 rule 3, §8)', () => {
  it('answers 409 ACTIVE_BONUS_EXISTS for a second one, and accepts it once the first is canceled', async () => {
    const first = body();
    const issueId = await expectRegistered(a, first);
    const second = body({ playerId: first['playerId'] });
    await expectRefused(a, second, 409, 'ACTIVE_BONUS_EXISTS');
    expect((await a.post('/v1/bonus-call/cancel', { issueId })).status).toBe(200);
    await expectRegistered(a, second);
  });

  it('counts per operator: the same playerId at another operator is another player', async () => {
    // The same request but for the base bet, a level of each operator's currency.
    const input = body({ callAmount: 1_000, metaData: { spinAmount: 1, baseBetAmount: 1 } });
    await expectRegistered(a, input);
    await expectRegistered(b, { ...input, metaData: { spinAmount: 1, baseBetAmount: 1_000 } });
  });
});

describe('idempotent registration (D17)', () => {
  it('answers a resent registration with the same issueId and Idempotent-Replayed: true, and appends nothing', async () => {
    const input = body();
    const first = await a.post('/v1/bonus-call/register', input);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const events = await stack.eventCount();
    const { platformId, ...rest } = input;
    for (const resend of [input, { ...rest, issueId: platformId, gameId: [102, 101], bonusType: 'FreeSpin' }]) {
      const again = await a.post('/v1/bonus-call/register', resend);
      expect(again.status).toBe(200);
      expect(again.body.data.issueId).toBe(first.body.data.issueId);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await stack.eventCount()).toBe(events);
  });

  it('answers 409 PLATFORM_ID_CONFLICT for the same platformId with another body', async () => {
    const input = body();
    await expectRegistered(a, input);
    await expectRefused(a, { ...input, callAmount: 51 }, 409, 'PLATFORM_ID_CONFLICT');
    await expectRefused(a, { ...input, playerId: 'someone_else' }, 409, 'PLATFORM_ID_CONFLICT');
  });

  it('keeps platformIds per operator: another operator may use the same one', async () => {
    const input = body({ callAmount: 1_000, metaData: { spinAmount: 1, baseBetAmount: 1 } });
    const mine = await expectRegistered(a, input);
    const theirs = await expectRegistered(b, { ...input, metaData: { spinAmount: 1, baseBetAmount: 1_000 } });
    expect(theirs).not.toBe(mine);
  });

  it('registers while the bonus-ledger is down (decided in the gateway, ADR 0011); the ledger answers its status once back', async () => {
    await stack.stopLedger();
    const input = body();
    let issueId: number;
    try {
      issueId = await expectRegistered(a, input);
      const again = await a.post('/v1/bonus-call/register', input);
      expect(again.status).toBe(200);
      expect(again.body.data.issueId).toBe(issueId);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      await expectRefused(a, { ...input, callAmount: 51 }, 409, 'PLATFORM_ID_CONFLICT');
    } finally {
      await stack.startLedger();
    }
    const stream = await stack.store.readStream(playerBonusStream('casino-a', input['playerId'] as string));
    expect(stream.map((event) => event.type)).toEqual(['BonusCallRegistered']);
    expect(stream[0]?.data).toMatchObject({ issueId });
    // The ledger's read model projects it from the log: the status query waits for that.
    expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data).toMatchObject({ issueId, status: 'active' });
  });
});
