/** The operator's own export (`GET /admin/transactions.csv`): what `reelstream reconcile` compares with the log. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OperatorDirectory } from '@reelstream/config';
import { parseOperatorsConfig, type CallbackRequest } from '@reelstream/contracts';
import { startOperatorSandbox, type OperatorSandbox } from '../src/index.js';
import { postCallback } from './sandbox-client.js';

const SECRET = 'sandbox-export-secret-0001';
let dir: string;
let sandbox: OperatorSandbox;

const operators = new OperatorDirectory(
  parseOperatorsConfig(
    [
      ['acme', 'EUR'],
      ['seoul', 'KRW'],
    ].map(([id, currency]) => ({
      id,
      name: id,
      apiToken: `${id}-api-token-0123456789`,
      callbackUrl: 'http://localhost/',
      signingSecret: SECRET,
      currency,
    })),
  ),
);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-export-'));
  sandbox = await startOperatorSandbox(
    { operators },
    {
      port: 0,
      host: '127.0.0.1',
      databasePath: join(dir, 'sandbox.db'),
      autoCreateBalance: 100,
      synchronous: 'NORMAL',
      adminToken: undefined,
      latencyMs: 0,
    },
  );
});
afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

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
