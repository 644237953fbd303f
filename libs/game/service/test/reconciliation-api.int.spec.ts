/**
 * The operator's reconciliation API end to end (docs/adr/0007-operator-reconciliation-api.md):
 * a real paid spin whose win the sandbox wallet refuses until it is fixed; the round and the
 * transactions read through the gateway, the dead letter listed, re-driven once it is fixed, and
 * re-driven again without a second win reaching the wallet. The wallet refuses with ERR_UNKNOWN, a
 * business answer: an HTTP 500 would work the same but open the operator's circuit, and the
 * dispatcher would hold each re-drive back one retry tier (5 s) before sending it.
 */
import { describe, expect, it } from '@jest/globals';
import {
  getRoundResponse,
  listDeadLettersResponse,
  listTransactionsResponse,
  redriveResponse,
} from '@reelstream/contracts';
import { spinResponse } from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { Stack } from './support/stack.js';

const stack = Stack.forTests();
const PLAYER = 'recon_player';

describe('a spin whose win the wallet refused, through the reconciliation API', () => {
  let roundId: number;
  let winTransactionId: number;
  let failedAttempts: number;

  it('shows the round: the bet succeeded, the win dead-lettered after its three attempts', async () => {
    const { token } = await stack.launch(PLAYER, 101);
    stack.fund(PLAYER, 50);
    stack.sandbox.faults.add({ playerId: PLAYER, command: 'win', statusCode: 'ERR_UNKNOWN' });
    const spin = spinResponse.parse((await stack.spin(token, { bet: 1 })).body).data;
    roundId = spin.roundId;

    const round = await eventually(async () => {
      const response = await stack.operatorApi('GET', `/v1/rounds/${roundId}`);
      expect(response.status).toBe(200);
      const data = getRoundResponse.parse(response.body).data;
      expect(data.transactions.map((tx) => [tx.command, tx.status])).toEqual([
        ['bet', 'succeeded'],
        ['win', 'dead_lettered'],
      ]);
      return data;
    }, 15_000);
    expect(round).toMatchObject({ roundId, playerId: PLAYER, gameId: 101, kind: 'paid', bet: 1, win: spin.win });
    expect(round.status).toBe('settled');
    const [bet, win] = round.transactions;
    expect(bet).toMatchObject({ amount: -1, attempts: 1, balance: 49, lastError: null });
    expect(win).toMatchObject({ amount: spin.win, attempts: 3, balance: null });
    expect(win?.lastError).toEqual(expect.any(String));
    winTransactionId = win?.transactionId ?? 0;
  });

  it('lists both transactions of the player in recorded order, page by page', async () => {
    const all = listTransactionsResponse.parse(
      (await stack.operatorApi('GET', `/v1/transactions?playerId=${PLAYER}`)).body,
    ).data;
    expect(all.items.map((tx) => tx.command)).toEqual(['bet', 'win']);
    expect(all.nextCursor).toBeNull();
    const first = listTransactionsResponse.parse(
      (await stack.operatorApi('GET', `/v1/transactions?playerId=${PLAYER}&limit=1`)).body,
    ).data;
    expect(first.items.map((tx) => tx.command)).toEqual(['bet']);
    const second = listTransactionsResponse.parse(
      (await stack.operatorApi('GET', `/v1/transactions?playerId=${PLAYER}&limit=1&cursor=${first.nextCursor}`)).body,
    ).data;
    expect(second.items.map((tx) => tx.transactionId)).toEqual([winTransactionId]);
    const dead = listTransactionsResponse.parse(
      (await stack.operatorApi('GET', '/v1/transactions?status=dead_lettered')).body,
    ).data;
    expect(dead.items.map((tx) => tx.transactionId)).toEqual([winTransactionId]);
  });

  it('lists the dead letter; a re-drive while the wallet still fails leaves it dead-lettered', async () => {
    const letters = listDeadLettersResponse.parse((await stack.operatorApi('GET', '/v1/wallet/dead-letters')).body).data
      .items;
    expect(letters.map((letter) => [letter.transaction.transactionId, letter.reason])).toEqual([
      [winTransactionId, 'delivery_failed'],
    ]);
    const failed = await stack.operatorApi('POST', `/v1/wallet/dead-letters/${winTransactionId}/redrive`);
    expect(failed.status).toBe(200);
    const result = redriveResponse.parse(failed.body).data;
    expect(result).toMatchObject({ result: 'failed', transaction: { status: 'dead_lettered' } });
    // A new delivery of its own attempts (the operator's open circuit may hold one back: it is not counted).
    expect(result.transaction.attempts).toBeGreaterThan(3);
    failedAttempts = result.transaction.attempts;
    expect(stack.transactions(PLAYER).filter((tx) => tx.command === 'win' && tx.applied)).toEqual([]);
  });

  it('re-drives it once the wallet is fixed, and a second re-drive sends nothing', async () => {
    stack.sandbox.faults.clear();
    const before = stack.balanceMinor(PLAYER) ?? Number.NaN;
    const redriven = await stack.operatorApi('POST', `/v1/wallet/dead-letters/${winTransactionId}/redrive`);
    expect(redriven.status).toBe(200);
    const applied = redriveResponse.parse(redriven.body).data;
    expect(applied).toMatchObject({ result: 'applied', reason: null, transaction: { status: 'succeeded' } });
    const attempts = applied.transaction.attempts;
    expect(attempts).toBeGreaterThan(failedAttempts);

    const again = redriveResponse.parse(
      (await stack.operatorApi('POST', `/v1/wallet/dead-letters/${winTransactionId}/redrive`)).body,
    ).data;
    expect(again).toMatchObject({ result: 'already_applied', transaction: { status: 'succeeded', attempts } });

    const wins = stack.transactions(PLAYER).filter((tx) => tx.command === 'win' && tx.applied);
    expect(wins.map((tx) => tx.transactionId)).toEqual([winTransactionId]);
    expect(stack.balanceMinor(PLAYER)).toBe(before + wins.reduce((sum, tx) => sum + tx.creditMinor, 0));
    expect(
      listDeadLettersResponse.parse((await stack.operatorApi('GET', '/v1/wallet/dead-letters')).body).data.items,
    ).toEqual([]);
    const round = getRoundResponse.parse((await stack.operatorApi('GET', `/v1/rounds/${roundId}`)).body).data;
    expect(round.transactions.map((tx) => tx.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('answers a bet’s re-drive 409 NOT_DEAD_LETTERED and an unknown id 404, changing nothing', async () => {
    const round = getRoundResponse.parse((await stack.operatorApi('GET', `/v1/rounds/${roundId}`)).body).data;
    const betId = round.transactions[0]?.transactionId ?? 0;
    const bet = await stack.operatorApi('POST', `/v1/wallet/dead-letters/${betId}/redrive`);
    expect([bet.status, bet.body.error.code]).toEqual([409, 'NOT_DEAD_LETTERED']);
    const unknown = await stack.operatorApi('POST', `/v1/wallet/dead-letters/${winTransactionId + 7}/redrive`);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    const missing = await stack.operatorApi('GET', `/v1/rounds/${roundId + 7}`);
    expect([missing.status, missing.body.error.code]).toEqual([404, 'ROUND_NOT_FOUND']);
  });
});
