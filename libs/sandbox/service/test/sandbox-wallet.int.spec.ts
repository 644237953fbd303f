/** The reference wallet's rules over real HTTP: signatures (D8), idempotency, money, cancels (D9). */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BetwinCallback, CancelCallback, WinCallback } from '@reelstream/contracts';
import { startOperatorSandbox } from '../src/index.js';
import { betCallback, newRound, nextId, postCallback, postRaw, sign } from './sandbox-client.js';
import {
  operatorDirectory,
  startTestSandbox,
  testOperator,
  testSandboxConfig,
  type TestSandbox,
} from './test-sandbox.js';

const SECRET = 'sandbox-test-secret-000001';
const NEXT_SECRET = 'sandbox-test-secret-000002';
let sandbox: TestSandbox;
let url: string;
let numberUrl: string;
const id = nextId;

function operatorsWith(signingSecret: string | string[]) {
  return operatorDirectory([
    testOperator('acme', signingSecret),
    testOperator('numeric', SECRET, { currency: 'USD', callbackIdEncoding: 'number' }),
  ]);
}

beforeAll(async () => {
  sandbox = await startTestSandbox('sandbox-wallet', { operators: operatorsWith([SECRET, NEXT_SECRET]) });
  url = `${sandbox.url}/wallet/acme`;
  numberUrl = `${sandbox.url}/wallet/numeric`;
});
afterAll(() => sandbox?.stop());

const common = (playerId: string) => newRound(playerId);
const bet = (playerId: string, amount: number) => betCallback(playerId, amount);
const win = (playerId: string, amount: number, roundId?: number): WinCallback => ({
  command: 'win',
  ...common(playerId),
  ...(roundId === undefined ? {} : { roundId }),
  amount,
  isRoundFinished: true,
});
const betwin = (playerId: string, betAmount: number, winAmount: number): BetwinCallback => ({
  command: 'betwin',
  ...common(playerId),
  betAmount,
  winAmount,
});
/** A cancel carries what its transaction moved: a bet's amount, a betwin's betAmount and winAmount (D9 amended). */
const cancel = (
  of: { transactionId: number; playerId: string; roundId: number },
  moved: number | { betAmount: number; winAmount: number },
): CancelCallback => ({
  command: 'cancel',
  transactionId: id(),
  refTransactionId: of.transactionId,
  playerId: of.playerId,
  roundId: of.roundId,
  providerId: 1,
  gameCode: 10,
  ...(typeof moved === 'number' ? { amount: moved } : moved),
  bonusId: 0,
  timestamp: 1_777_000_001,
});
const send = (callback: Parameters<typeof postCallback>[1], secret = SECRET) => postCallback(url, callback, { secret });
const balance = (playerId: string, currency = 'EUR') =>
  sandbox.views.accounts('acme', playerId).find((account) => account.currency === currency)?.balanceMinor;

describe('signatures (D8)', () => {
  it('refuses a missing or wrong X-Request-Signature with ERR_INTEGRITY_CHECK_FAILED and moves no money', async () => {
    const callback = bet('sig_player', 5);
    const text = JSON.stringify({
      ...callback,
      transactionId: String(callback.transactionId),
      roundId: String(callback.roundId),
      bonusId: '0',
    });
    expect((await postRaw(url, text, undefined)).body).toMatchObject({
      statusCode: 'ERR_INTEGRITY_CHECK_FAILED',
      balance: 0,
    });
    expect((await postRaw(url, text, sign(text, 'some-other-secret-123456'))).body).toMatchObject({
      statusCode: 'ERR_INTEGRITY_CHECK_FAILED',
    });
    expect((await postRaw(url, `${text} `, sign(text, SECRET))).body).toMatchObject({
      statusCode: 'ERR_INTEGRITY_CHECK_FAILED',
    });
    expect((await postRaw(url, text, sign(text, SECRET).toUpperCase())).body).toMatchObject({
      statusCode: 'ERR_INTEGRITY_CHECK_FAILED',
    });
    expect(sandbox.views.transactions({ playerId: 'sig_player' })).toEqual([]);
    expect(sandbox.views.requests({ playerId: 'sig_player' }).map((entry) => entry.outcome)).toEqual([
      'bad_signature',
      'bad_signature',
      'bad_signature',
      'bad_signature',
    ]);
  });

  it('accepts either secret during a rotation', async () => {
    expect((await send(bet('rotating', 1), SECRET)).body).toEqual({ balance: 99, statusCode: 'OK' });
    expect((await send(bet('rotating', 1), NEXT_SECRET)).body).toEqual({ balance: 98, statusCode: 'OK' });
  });

  it('holds an operator to its id encoding (D7)', async () => {
    const callback = { ...bet('numeric_player', 1), currency: 'USD' };
    expect((await postCallback(numberUrl, callback, { secret: SECRET, encoding: 'number' })).body).toEqual({
      balance: 99,
      statusCode: 'OK',
    });
    const asStrings = await postCallback(
      numberUrl,
      { ...callback, transactionId: id() },
      { secret: SECRET, encoding: 'string' },
    );
    expect(asStrings.body).toMatchObject({
      statusCode: 'ERR_UNKNOWN',
      message: expect.stringMatching(/transactionId/),
    });
  });
});

describe('each transactionId is applied once', () => {
  it('a replay gets the original response, even with a new timestamp, and changes nothing', async () => {
    const callback = bet('replay_player', 10);
    const first = await send(callback);
    expect(first.body).toEqual({ balance: 90, statusCode: 'OK' });
    await send(bet('replay_player', 5));
    const replay = await send({ ...callback, timestamp: callback.timestamp + 30 });
    expect(replay.body).toEqual({ balance: 90, statusCode: 'OK' });
    expect(balance('replay_player')).toBe(8_500);
  });

  it('the same id with another body is refused with ERR_UNKNOWN and changes nothing', async () => {
    const callback = win('reuse_player', 10);
    await send(callback);
    const reused = await send({ ...callback, amount: 1_000 });
    expect(reused.body).toMatchObject({
      statusCode: 'ERR_UNKNOWN',
      message: expect.stringMatching(/already used for a different request/),
      balance: 110,
    });
    expect(balance('reuse_player')).toBe(11_000);
  });
});

describe('money', () => {
  it('ERR_NOT_ENOUGH_MONEY when the balance is short; the answer is replayed as it was', async () => {
    const callback = bet('short_player', 100.01);
    expect((await send(callback)).body).toEqual({ balance: 100, statusCode: 'ERR_NOT_ENOUGH_MONEY' });
    expect((await send(bet('short_player', 100))).body).toEqual({ balance: 0, statusCode: 'OK' });
    expect((await send(callback)).body).toEqual({ balance: 100, statusCode: 'ERR_NOT_ENOUGH_MONEY' });
    expect(balance('short_player')).toBe(0);
  });

  it('betwin moves the bet and the win together, or neither', async () => {
    expect((await send(betwin('betwin_player', 150, 1_000))).body).toEqual({
      balance: 100,
      statusCode: 'ERR_NOT_ENOUGH_MONEY',
    });
    expect(balance('betwin_player')).toBe(10_000);
    expect((await send(betwin('betwin_player', 60, 25.5))).body).toEqual({ balance: 65.5, statusCode: 'OK' });
    const [row] = sandbox.views
      .transactions({ playerId: 'betwin_player', afterSeq: 0 })
      .filter((entry) => entry.applied);
    expect(row).toMatchObject({ command: 'betwin', debitMinor: 6_000, creditMinor: 2_550 });
  });

  it('refuses an amount with more decimals than the currency has', async () => {
    expect((await send(bet('precise_player', 1.005))).body).toMatchObject({
      statusCode: 'ERR_UNKNOWN',
      message: expect.stringMatching(/decimal/),
    });
  });

  it('credits a win in the currency of its round’s bet', async () => {
    sandbox.views.setBalance('acme', 'two_currencies', 'EUR', 1_000);
    sandbox.views.setBalance('acme', 'two_currencies', 'USD', 1_000);
    const usdBet = { ...bet('two_currencies', 1), currency: 'USD' };
    await send(usdBet);
    expect((await send(win('two_currencies', 5, usdBet.roundId))).body).toEqual({ balance: 14, statusCode: 'OK' });
    expect(balance('two_currencies', 'USD')).toBe(1_400);
    expect(balance('two_currencies', 'EUR')).toBe(1_000);
  });
});

describe('cancel (D9)', () => {
  it('refunds a bet once; another cancel of it and a replay change nothing', async () => {
    const placed = bet('cancel_player', 30);
    await send(placed);
    const first = cancel(placed, 30);
    expect((await send(first)).body).toEqual({ balance: 100, statusCode: 'OK' });
    expect((await send(first)).body).toEqual({ balance: 100, statusCode: 'OK' });
    expect((await send(cancel(placed, 30))).body).toEqual({ balance: 100, statusCode: 'OK' });
    expect(balance('cancel_player')).toBe(10_000);
    expect(
      sandbox.views.transactions({ playerId: 'cancel_player' }).map((row) => [row.command, row.cancelEffect]),
    ).toEqual([
      ['bet', null],
      ['cancel', 'refunded'],
      ['cancel', 'already_canceled'],
    ]);
  });

  it('reverts a betwin whole: the bet comes back, the win goes (its cancel carries betAmount and winAmount)', async () => {
    const placed = betwin('cancel_betwin', 20, 50);
    expect((await send(placed)).body).toEqual({ balance: 130, statusCode: 'OK' });
    expect((await send(cancel(placed, { betAmount: 20, winAmount: 50 }))).body).toEqual({
      balance: 100,
      statusCode: 'OK',
    });
    expect(balance('cancel_betwin')).toBe(10_000);
    expect(
      sandbox.views
        .transactions({ playerId: 'cancel_betwin' })
        .map((row) => [row.command, row.debitMinor, row.creditMinor, row.cancelEffect]),
    ).toEqual([
      ['betwin', 2_000, 5_000, null],
      ['cancel', 5_000, 2_000, 'refunded'],
    ]);
  });

  it('refuses, and changes nothing for, a cancel whose amounts are not what its transaction carried', async () => {
    const placedBetwin = betwin('cancel_mismatch', 20, 50);
    const placedBet = bet('cancel_mismatch', 5);
    await send(placedBetwin);
    await send(placedBet);
    const refusals = [
      cancel(placedBetwin, 20),
      cancel(placedBetwin, { betAmount: 20, winAmount: 0 }),
      cancel(placedBet, 4),
      cancel(placedBet, { betAmount: 5, winAmount: 0 }),
    ];
    for (const refused of refusals) {
      expect((await send(refused)).body).toMatchObject({
        statusCode: 'ERR_UNKNOWN',
        balance: 125,
        message: expect.stringMatching(/^cancel of (bet|betwin) \d+ carries .*, but that (bet|betwin) carried /),
      });
    }
    expect(balance('cancel_mismatch')).toBe(12_500);
    expect((await send(cancel(placedBetwin, { betAmount: 20, winAmount: 50 }))).body).toEqual({
      balance: 95,
      statusCode: 'OK',
    });
    expect((await send(cancel(placedBet, 5))).body).toEqual({ balance: 100, statusCode: 'OK' });
  });

  it('answers OK for an unknown transaction, and refuses that transaction if it lands later', async () => {
    const late = bet('preempt_player', 40);
    expect((await send(cancel(late, 40))).body).toEqual({ balance: 100, statusCode: 'OK' });
    expect((await send(late)).body).toMatchObject({
      statusCode: 'ERR_UNKNOWN',
      message: expect.stringMatching(/canceled .* before it arrived/),
    });
    expect(balance('preempt_player')).toBe(10_000);
  });

  it('a rejected bet has nothing to refund', async () => {
    const placed = bet('poor_player', 500);
    await send(placed);
    expect((await send(cancel(placed, 500))).body).toEqual({ balance: 100, statusCode: 'OK' });
    expect(sandbox.views.transactions({ playerId: 'poor_player' }).map((row) => row.cancelEffect)).toEqual([
      null,
      'nothing_to_refund',
    ]);
  });
});

describe('players', () => {
  it('unknown players get an account with the opening balance; without auto-creation they are ERR_NOT_AUTHENTICATED', async () => {
    const closed = await startOperatorSandbox(
      { operators: operatorsWith(SECRET) },
      testSandboxConfig(join(sandbox.dir, 'closed.db'), { autoCreateBalance: undefined, synchronous: 'FULL' }),
    );
    try {
      expect(
        (await postCallback(`${closed.url}/wallet/acme`, bet('stranger', 1), { secret: SECRET })).body,
      ).toMatchObject({ statusCode: 'ERR_NOT_AUTHENTICATED', balance: 0 });
      closed.views.setBalance('acme', 'stranger', 'EUR', 500);
      expect((await postCallback(`${closed.url}/wallet/acme`, bet('stranger', 1), { secret: SECRET })).body).toEqual({
        balance: 4,
        statusCode: 'OK',
      });
    } finally {
      await closed.stop();
    }
  });

  it('balances and the ledger outlive a restart of the sandbox (its own SQLite file)', async () => {
    const config = testSandboxConfig(join(sandbox.dir, 'restart.db'));
    const first = await startOperatorSandbox({ operators: operatorsWith(SECRET) }, config);
    const placed = bet('durable', 7);
    await postCallback(`${first.url}/wallet/acme`, placed, { secret: SECRET });
    await first.stop();
    const second = await startOperatorSandbox({ operators: operatorsWith(SECRET) }, config);
    try {
      expect((await postCallback(`${second.url}/wallet/acme`, placed, { secret: SECRET })).body).toEqual({
        balance: 93,
        statusCode: 'OK',
      });
      expect(second.views.requests({ playerId: 'durable' }).map((entry) => entry.outcome)).toEqual([
        'applied',
        'replayed',
      ]);
    } finally {
      await second.stop();
    }
  });
});

describe('HTTP', () => {
  it('answers with the platform’s HTTP defaults: no ETag computed for an answer, no X-Powered-By', async () => {
    const sent = await send(bet('defaults', 1));
    expect(sent.status).toBe(200);
    expect(sent.headers['etag']).toBeUndefined();
    expect(sent.headers['x-powered-by']).toBeUndefined();
  });
});
