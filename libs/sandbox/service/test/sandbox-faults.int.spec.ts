/** Fault injection and the admin API (tests, the e2e suite and demos use them). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RequestError } from 'got';
import type { BetCallback } from '@reelstream/contracts';
import { admin, betCallback, postCallback } from './sandbox-client.js';
import { operatorDirectory, startTestSandbox, testOperator, type TestSandbox } from './test-sandbox.js';

const SECRET = 'sandbox-fault-secret-00001';
const TOKEN = 'sandbox-admin-token-0001';
let sandbox: TestSandbox;

beforeAll(async () => {
  const operators = operatorDirectory([testOperator('acme', SECRET)]);
  sandbox = await startTestSandbox('sandbox-faults', { operators }, { adminToken: TOKEN });
});
afterAll(() => sandbox?.stop());

const bet = betCallback;
const send = (callback: BetCallback) => postCallback(`${sandbox.url}/wallet/acme`, callback, { secret: SECRET });
const addFault = async (rule: Record<string, unknown>) => {
  const response = await admin('POST', `${sandbox.url}/admin/faults`, rule, TOKEN);
  expect(response.status).toBe(201);
  return response.body as { id: number };
};

describe('fault injection, per command and player, with counts', () => {
  it('an HTTP status twice, then the real answer', async () => {
    await addFault({ playerId: 'f_status', command: 'bet', httpStatus: 503, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send(bet('f_status'))).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect(sandbox.views.transactions({ playerId: 'f_status' })).toHaveLength(1);
  });

  it('another callback status code, without applying; other players and commands are untouched', async () => {
    await addFault({ playerId: 'f_code', command: 'bet', statusCode: 'ERR_NOT_AUTHENTICATED' });
    expect((await send(bet('f_code'))).body).toMatchObject({ statusCode: 'ERR_NOT_AUTHENTICATED' });
    expect((await send(bet('f_other'))).body).toEqual({ balance: 99, statusCode: 'OK' });
    expect(sandbox.views.transactions({ playerId: 'f_code' })).toEqual([]);
  });

  it('a malformed body, after applying when asked to', async () => {
    await addFault({ playerId: 'f_garbled', malformedBody: true, applyFirst: true, times: 1 });
    const garbled = await send(bet('f_garbled', 2));
    expect(garbled.status).toBe(200);
    expect(() => JSON.parse(garbled.text) as unknown).toThrow();
    expect(sandbox.views.accounts('acme', 'f_garbled')[0]?.balanceMinor).toBe(9_800);
  });

  it('a dropped connection', async () => {
    await addFault({ playerId: 'f_drop', dropConnection: true, times: 1 });
    await expect(send(bet('f_drop'))).rejects.toBeInstanceOf(RequestError);
    expect(sandbox.views.requests({ playerId: 'f_drop' }).map((entry) => entry.outcome)).toEqual(['fault']);
  });

  it('latency, applied before or after the wait', async () => {
    await addFault({ playerId: 'f_slow', latencyMs: 300, times: 1 });
    const started = performance.now();
    expect((await send(bet('f_slow'))).body).toEqual({ balance: 99, statusCode: 'OK' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('rules are listed with their hits and uses left, and can be removed', async () => {
    const rule = await addFault({ playerId: 'f_list', command: 'win', statusCode: 'ERR_UNKNOWN', times: 5 });
    const listed = (await admin('GET', `${sandbox.url}/admin/faults`, undefined, TOKEN)).body['faults'] as {
      id: number;
      remaining: number;
      hits: number;
    }[];
    expect(listed.find((entry) => entry.id === rule.id)).toMatchObject({ remaining: 5, hits: 0 });
    expect((await admin('DELETE', `${sandbox.url}/admin/faults/${rule.id}`, undefined, TOKEN)).status).toBe(204);
    expect((await admin('DELETE', `${sandbox.url}/admin/faults/${rule.id}`, undefined, TOKEN)).status).toBe(404);
  });

  it('refuses a rule that asks for two answers at once, or none', async () => {
    expect(
      (await admin('POST', `${sandbox.url}/admin/faults`, { httpStatus: 500, dropConnection: true }, TOKEN)).status,
    ).toBe(400);
    expect((await admin('POST', `${sandbox.url}/admin/faults`, { playerId: 'x' }, TOKEN)).status).toBe(400);
  });
});

describe('admin API', () => {
  it('needs the admin token when one is configured', async () => {
    expect((await admin('GET', `${sandbox.url}/admin/faults`)).status).toBe(401);
  });

  it('creates, funds and reads players; amounts in currency units', async () => {
    expect(
      (await admin('PUT', `${sandbox.url}/admin/players/acme/funded`, { currency: 'EUR', balance: 12.5 }, TOKEN)).body,
    ).toMatchObject({ accounts: [{ currency: 'EUR', balance: 12.5, balanceMinor: 1_250 }] });
    expect(
      (
        await admin(
          'POST',
          `${sandbox.url}/admin/players/acme/funded/deposits`,
          { currency: 'EUR', amount: 7.5 },
          TOKEN,
        )
      ).body,
    ).toMatchObject({ accounts: [{ balance: 20 }] });
    expect((await admin('GET', `${sandbox.url}/admin/players/acme/funded`, undefined, TOKEN)).body).toEqual({
      operatorId: 'acme',
      playerId: 'funded',
      accounts: [{ currency: 'EUR', balance: 20, balanceMinor: 2_000 }],
    });
    expect((await admin('GET', `${sandbox.url}/admin/players/acme/nobody`, undefined, TOKEN)).status).toBe(404);
    expect(
      (await admin('PUT', `${sandbox.url}/admin/players/acme/funded`, { currency: 'EUR', balance: 1.001 }, TOKEN))
        .status,
    ).toBe(400);
  });

  it('lists the ledger and the callbacks received', async () => {
    const placed = bet('ledger_player', 3);
    await send(placed);
    const ledger = (
      await admin('GET', `${sandbox.url}/admin/transactions?operatorId=acme&playerId=ledger_player`, undefined, TOKEN)
    ).body['transactions'];
    expect(ledger).toEqual([
      expect.objectContaining({
        transactionId: placed.transactionId,
        command: 'bet',
        debitMinor: 300,
        creditMinor: 0,
        statusCode: 'OK',
        applied: true,
      }),
    ]);
    const received = (
      await admin('GET', `${sandbox.url}/admin/requests?transactionId=${placed.transactionId}`, undefined, TOKEN)
    ).body['requests'];
    expect(received).toEqual([
      expect.objectContaining({ transactionId: placed.transactionId, outcome: 'applied', statusCode: 'OK' }),
    ]);
    expect((await admin('GET', `${sandbox.url}/admin/transactions?limit=zero`, undefined, TOKEN)).status).toBe(400);
  });
});
