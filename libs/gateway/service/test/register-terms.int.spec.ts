/**
 * POST /v1/bonus-call/register over HTTP with the real bonus-ledger: the bonus call's
 * currency (D6 amended), its base bet a bet level of every game, and the operator's limits.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { errorEnvelope } from '@reelstream/contracts';
import type { HttpClient } from './support/http-client.js';
import { TOKENS } from './support/operators.js';
import { expectRefused, expectRegistered, freeSpinBodies } from './support/registrations.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let a: HttpClient;
let c: HttpClient;

beforeAll(async () => {
  stack = await startStack();
  a = stack.http.withToken(TOKENS.a);
  c = stack.http.withToken(TOKENS.c);
});
afterAll(async () => {
  await stack.close();
});

/** A valid Free Spin Bonus for a player nobody used yet. */
const body = freeSpinBodies('terms', 'terms_player_');

describe('bonus terms: currency, bet levels, limits', () => {
  it('refuses a callAmount above the operator limit of the currency with 422 CALL_AMOUNT_LIMIT_EXCEEDED (the default is 1,000 × the highest bet level)', async () => {
    await expectRefused(c, body({ callAmount: 10_000.01 }), 422, 'CALL_AMOUNT_LIMIT_EXCEEDED', 'callAmount');
    await expectRegistered(c, body({ callAmount: 10_000 }));
  });

  it('registers a bonus call in an allowed currency other than the default, and shows it in that currency', async () => {
    const issueId = await expectRegistered(
      a,
      body({ currency: 'KRW', callAmount: 50_000, metaData: { spinAmount: 5, baseBetAmount: 200 } }),
    );
    expect((await a.get(`/v1/bonus-call/${issueId}`)).body.data).toMatchObject({
      currency: 'KRW',
      callAmount: 50_000,
      baseBetAmount: 200,
    });
  });

  it('refuses a currency the operator does not allow with 422 CURRENCY_NOT_ALLOWED', async () => {
    await expectRefused(c, body({ currency: 'EUR' }), 422, 'CURRENCY_NOT_ALLOWED', 'currency');
  });

  it('refuses a base bet that is not a bet level of every game with 422 BET_LEVEL_NOT_AVAILABLE, the levels in details', async () => {
    const response = await a.post('/v1/bonus-call/register', body({ metaData: { spinAmount: 5, baseBetAmount: 0.3 } }));
    expect(response.status).toBe(422);
    expect(errorEnvelope.parse(response.body).error).toEqual({
      code: 'BET_LEVEL_NOT_AVAILABLE',
      details: [
        { path: 'metaData.baseBetAmount', message: 'game 101 offers 0.2, 0.4, 1, 2, 4, 10 EUR' },
        { path: 'metaData.baseBetAmount', message: 'game 102 offers 0.2, 0.4, 1, 2, 4, 10 EUR' },
        { path: 'metaData.baseBetAmount', message: 'levels every game of the bonus offers: 0.2, 0.4, 1, 2, 4, 10 EUR' },
      ],
    });
  });
});
