/** The operator's own export (`GET /admin/transactions.csv`): what `reelstream reconcile` compares with the log. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CallbackRequest } from '@reelstream/contracts';
import { postCallback } from './sandbox-client.js';
import { operatorDirectory, startTestSandbox, testOperator, type TestSandbox } from './test-sandbox.js';

const SECRET = 'sandbox-export-secret-0001';
let sandbox: TestSandbox;

beforeAll(async () => {
  const operators = operatorDirectory([
    testOperator('acme', SECRET),
    testOperator('seoul', SECRET, { currency: 'KRW' }),
  ]);
  sandbox = await startTestSandbox('sandbox-export', { operators });
});
afterAll(() => sandbox?.stop());

const base = (transactionId: number, playerId: string, roundId: number) => ({
  transactionId,
  playerId,
  roundId,
  providerId: 1,
  gameCode: 10,
  bonusId: 0,
  timestamp: 1_777_000_000,
});
const send = (operator: string, callback: CallbackRequest) =>
  postCallback(`${sandbox.url}/wallet/${operator}`, callback, { secret: SECRET });

describe('GET /admin/transactions.csv', () => {
  it('lists one operator’s transactions with the signed balance change each made, in currency units', async () => {
    await send('acme', { command: 'bet', ...base(11, 'p1', 1), currency: 'EUR', amount: 2.5, isBonusBusy: false });
    await send('acme', { command: 'win', ...base(12, 'p1', 1), amount: 4, isRoundFinished: true });
    await send('acme', { command: 'betwin', ...base(13, 'p1', 2), betAmount: 1, winAmount: 0.4 });
    await send('acme', { command: 'cancel', ...base(14, 'p1', 2), refTransactionId: 13, betAmount: 1, winAmount: 0.4 });
    // refused: more than the balance; its cancel then has nothing to refund
    await send('acme', { command: 'bet', ...base(15, 'p1', 3), currency: 'EUR', amount: 500, isBonusBusy: false });
    await send('acme', { command: 'cancel', ...base(16, 'p1', 3), refTransactionId: 15, amount: 500 });
    await send('seoul', { command: 'bet', ...base(21, 'p1', 4), currency: 'KRW', amount: 50, isBonusBusy: false });

    const response = await fetch(`${sandbox.url}/admin/transactions.csv?operatorId=acme`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await response.text()).toBe(
      [
        'transactionId,command,amount,currency,status',
        '11,bet,-2.50,EUR,OK',
        '12,win,4.00,EUR,OK',
        '13,betwin,-0.60,EUR,OK',
        '14,cancel,0.60,EUR,OK',
        '15,bet,0.00,EUR,ERR_NOT_ENOUGH_MONEY',
        '16,cancel,0.00,EUR,OK',
        '',
      ].join('\n'),
    );
    const seoul = await (await fetch(`${sandbox.url}/admin/transactions.csv?operatorId=seoul`)).text();
    expect(seoul).toBe('transactionId,command,amount,currency,status\n21,bet,-50,KRW,OK\n');
  });

  it('refuses a request without an operator: an export never mixes operators', async () => {
    const response = await fetch(`${sandbox.url}/admin/transactions.csv`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'bad request' });
  });
});
