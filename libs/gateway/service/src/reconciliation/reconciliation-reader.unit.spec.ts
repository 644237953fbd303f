import { describe, expect, it } from '@jest/globals';
import {
  WIN_REDRIVE_DEFAULTS,
  type WalletBetRequest,
  type WalletTxEvent,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { evolve, initialWalletTxState } from '@reelstream/wallet-domain';
import { transactionView } from './reconciliation-reader.js';

const at = '2026-05-01T10:00:00.000Z';
const bet: WalletBetRequest = {
  command: 'bet',
  transactionId: 11,
  operatorId: 'casino-a',
  playerId: 'p_1',
  roundId: 10,
  providerId: 1,
  gameId: 101,
  currency: 'KRW',
  bonusId: 0,
  requestedAt: at,
  amountMinor: 1_500,
  isBonusBusy: false,
};

/** The dispatcher's own fold of the events (the reader loads a transaction the same way). */
const fold = (events: WalletTxEvent[]) => events.reduce(evolve, initialWalletTxState);
const requested: WalletTxEvent = {
  type: 'WalletRequested',
  data: { transactionId: 11, operatorId: 'casino-a', command: 'bet', request: bet, requestedAt: at },
};

describe('transactionView', () => {
  it('shows a bet as a negative amount in currency units, with no balance until the wallet answered OK', () => {
    const view = transactionView(
      bet,
      fold([requested, { type: 'WalletAttempted', data: { attempt: 1, command: 'bet', at } }]),
      WIN_REDRIVE_DEFAULTS,
    );
    expect(view).toMatchObject({ command: 'bet', currency: 'KRW', amount: -1_500, status: 'pending', attempts: 1 });
    expect([view.balance, view.lastError, view.cancel]).toEqual([null, null, null]);
  });

  it('shows a failed bet with the reason of its last attempt and its cancel, pending then succeeded', () => {
    const failed: WalletTxEvent[] = [
      requested,
      { type: 'WalletAttempted', data: { attempt: 1, command: 'bet', at } },
      {
        type: 'WalletFailed',
        data: { statusCode: 'ERR_NOT_ENOUGH_MONEY', attempt: 1, final: true, command: 'bet', at },
      },
      { type: 'CancelRequested', data: { cancelTransactionId: 12, refTransactionId: 11, at } },
      { type: 'WalletAttempted', data: { attempt: 1, command: 'cancel', at } },
    ];
    const pending = transactionView(bet, fold(failed), WIN_REDRIVE_DEFAULTS);
    expect(pending).toMatchObject({
      status: 'failed',
      balance: null,
      cancel: { transactionId: 12, status: 'pending', attempts: 1 },
    });
    expect(pending.lastError).toContain('ERR_NOT_ENOUGH_MONEY');
    const done = transactionView(
      bet,
      fold([...failed, { type: 'CancelSucceeded', data: { at, balanceMinor: 20_000 } }]),
      WIN_REDRIVE_DEFAULTS,
    );
    expect(done.cancel).toEqual({ transactionId: 12, status: 'succeeded', attempts: 1 });
  });

  it('shows the balance the OK reply carried, and no error once it succeeded after a failed attempt', () => {
    const view = transactionView(
      bet,
      fold([
        requested,
        { type: 'WalletAttempted', data: { attempt: 1, command: 'bet', at } },
        { type: 'WalletFailed', data: { error: 'timeout', attempt: 1, final: false, command: 'bet', at } },
        { type: 'WalletAttempted', data: { attempt: 2, command: 'bet', at } },
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 98_500, command: 'bet', at } },
      ]),
      WIN_REDRIVE_DEFAULTS,
    );
    expect(view).toMatchObject({ status: 'succeeded', attempts: 2, balance: 98_500, lastError: null });
  });

  it("shows a dead-lettered win's next scheduled re-drive by the operator's winRedrive, and none once the schedule is over", () => {
    const win: WalletWinRequest = {
      ...bet,
      command: 'win',
      transactionId: 13,
      amountMinor: 700,
      isRoundFinished: true,
    } as WalletWinRequest;
    const letter = (when: string): WalletTxEvent => ({
      type: 'WinDeadLettered',
      data: { attempts: 3, lastError: 'timeout', at: when, reason: 'delivery_failed' },
    });
    const first = [
      { ...requested, data: { ...requested.data, transactionId: 13, command: 'win', request: win } } as WalletTxEvent,
      { type: 'WalletAttempted', data: { attempt: 1, at } } as WalletTxEvent,
      letter(at),
    ];
    const schedule = { everySeconds: 60, forSeconds: 150 };
    expect(transactionView(win, fold(first), schedule).nextRedriveAt).toBe('2026-05-01T10:01:00.000Z');
    expect(transactionView(win, fold(first), WIN_REDRIVE_DEFAULTS).nextRedriveAt).toBe('2026-05-01T10:05:00.000Z');
    const redriven = [
      ...first,
      { type: 'WalletAttempted', data: { attempt: 2, at, redrive: true, scheduled: true } } as WalletTxEvent,
      letter('2026-05-01T10:02:00.000Z'),
    ];
    // 10:03 is beyond 150 s after the first dead letter: the schedule is over.
    expect(transactionView(win, fold(redriven), schedule)).toMatchObject({
      status: 'dead_lettered',
      nextRedriveAt: null,
    });
    expect(transactionView(bet, fold([requested]), schedule).nextRedriveAt).toBeNull();
  });
});
