import { describe, expect, it } from '@jest/globals';
import { walletCancelDelivery, walletDeadLetter, walletReply, type WalletTxEvent } from '@reelstream/contracts';
import { deadLetterOf, nextAttempt, pendingCancel, replyFromRecord, type WalletTxState } from '../src/index.js';
import { attempted, bet, failedWith, now, requested, stateOf, win } from './fixtures.js';

describe('nextAttempt: what the record says to send next', () => {
  it('a bet gets one attempt of 3 s; a recorded outcome needs none', () => {
    expect(nextAttempt(stateOf([requested(bet)]))).toEqual({ delayMs: 0, timeoutMs: 3_000, recovery: false });
    expect(
      nextAttempt(
        stateOf([
          requested(bet),
          attempted(1),
          { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 1, at: now } },
        ]),
      ),
    ).toBeUndefined();
    expect(nextAttempt(stateOf([]))).toBeUndefined();
  });

  it('a win waits a moment between its 4 s attempts', () => {
    expect(nextAttempt(stateOf([requested(win)]))).toEqual({ delayMs: 0, timeoutMs: 4_000, recovery: false });
    expect(nextAttempt(stateOf([requested(win), attempted(1), failedWith(1, false)]))).toEqual({
      delayMs: 200,
      timeoutMs: 4_000,
      recovery: false,
    });
    expect(
      nextAttempt(stateOf([requested(win), attempted(1), failedWith(1, false), attempted(2), failedWith(2, false)])),
    ).toEqual({ delayMs: 400, timeoutMs: 4_000, recovery: false });
  });

  it('a delivery whose attempts all failed gets no more: a bet after one, a win after three', () => {
    expect(nextAttempt(stateOf([requested(bet), attempted(1), failedWith(1, false)]))).toBeUndefined();
    const threeFailed = [1, 2, 3].flatMap((attempt) => [attempted(attempt), failedWith(attempt, false)]);
    expect(nextAttempt(stateOf([requested(win), ...threeFailed]))).toBeUndefined();
  });

  it('an attempt whose outcome is unknown is sent again at once', () => {
    expect(nextAttempt(stateOf([requested(bet), attempted(1)]))).toEqual({
      delayMs: 0,
      timeoutMs: 3_000,
      recovery: true,
    });
  });
});

describe('replyFromRecord: the requester’s answer on wallet.replies', () => {
  it('OK with the balance', () => {
    const reply = replyFromRecord(
      stateOf([
        requested(bet),
        attempted(1),
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 9_850, at: now } },
      ]),
    );
    expect(walletReply.parse(reply)).toEqual({
      transactionId: bet.transactionId,
      statusCode: 'OK',
      balanceMinor: 9_850,
      canceled: false,
    });
  });

  it('a failed bet: the operator’s code, canceled, and why', () => {
    const reply = replyFromRecord(
      stateOf([
        requested(bet),
        attempted(1),
        {
          type: 'WalletFailed',
          data: { statusCode: 'ERR_NOT_ENOUGH_MONEY', balanceMinor: 40, attempt: 1, final: true, at: now },
        },
        { type: 'CancelRequested', data: { cancelTransactionId: 900, refTransactionId: bet.transactionId, at: now } },
      ]),
    );
    expect(walletReply.parse(reply)).toEqual({
      transactionId: bet.transactionId,
      statusCode: 'ERR_NOT_ENOUGH_MONEY',
      canceled: true,
      reason: 'ERR_NOT_ENOUGH_MONEY; the round is canceled (cancel 900)',
    });
  });

  it('a dead-lettered win: ERR_UNKNOWN after a time-out, not canceled', () => {
    const reply = replyFromRecord(
      stateOf([
        requested(win),
        attempted(3),
        failedWith(3, true),
        { type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at: now } },
      ]),
    );
    expect(walletReply.parse(reply)).toEqual({
      transactionId: win.transactionId,
      statusCode: 'ERR_UNKNOWN',
      canceled: false,
      reason: 'dead-lettered after 3 attempt(s): timeout: no reply within 4000 ms',
    });
  });

  it('a failed bet whose cancel is not requested yet: not canceled, the failure alone', () => {
    const reply = replyFromRecord(
      stateOf([requested(bet), attempted(1), failedWith(1, true, 'timeout: no reply within 3000 ms')]),
    );
    expect(walletReply.parse(reply)).toEqual({
      transactionId: bet.transactionId,
      statusCode: 'ERR_UNKNOWN',
      canceled: false,
      reason: 'timeout: no reply within 3000 ms',
    });
  });

  it('a reason of 1,000 characters is kept whole; a longer one is clipped to 999 and an ellipsis', () => {
    const failedWithError = (error: string) =>
      replyFromRecord(stateOf([requested(bet), attempted(1), failedWith(1, true, error)]));
    const exactly = 'x'.repeat(1_000);
    expect(failedWithError(exactly)?.reason).toBe(exactly);
    expect(failedWithError(`${'y'.repeat(999)}z and more`)?.reason).toBe(`${'y'.repeat(999)}…`);
  });

  it('a win dead-lettered without a call says why it was parked, not how many attempts it had', () => {
    const reply = replyFromRecord(
      stateOf([
        requested(win),
        {
          type: 'WinDeadLettered',
          data: {
            attempts: 0,
            lastError: 'operator demo is not configured',
            at: now,
            reason: 'operator_not_configured',
          },
        },
      ]),
    );
    expect(walletReply.parse(reply)).toEqual({
      transactionId: win.transactionId,
      statusCode: 'ERR_UNKNOWN',
      canceled: false,
      reason: 'dead-lettered (operator_not_configured): operator demo is not configured',
    });
  });

  it('a failed delivery dead-lettered with no failure recorded is explained by its dead letter', () => {
    const reply = replyFromRecord(
      stateOf([
        requested(win),
        attempted(1),
        { type: 'WinDeadLettered', data: { attempts: 1, lastError: 'no reply', at: now, reason: 'delivery_failed' } },
      ]),
    );
    expect(reply?.reason).toBe('dead-lettered after 1 attempt(s): no reply');
  });

  // The next two records are not what evolve writes (it always records a failure's text and a dead
  // letter's reason), but the state allows them, and the answer must still read.
  it('a record with no recorded failure or dead-letter detail says "failed", as a failed delivery', () => {
    const failed: WalletTxState = { ...stateOf([requested(bet)]), status: 'failed' };
    expect(replyFromRecord(failed)).toEqual({
      transactionId: bet.transactionId,
      statusCode: 'ERR_UNKNOWN',
      canceled: false,
      reason: 'failed',
    });
    const parked: WalletTxState = {
      ...stateOf([requested(win)]),
      status: 'dead_lettered',
      deadLetters: 1,
      deadLetteredAt: now,
    };
    expect(replyFromRecord(parked)?.reason).toBe('dead-lettered after 0 attempt(s): failed');
    expect(deadLetterOf(parked)).toMatchObject({ reason: 'delivery_failed', lastError: 'failed' });
  });

  it('a dead letter without a reason reads as a failed delivery: explained by the last failure', () => {
    const parked: WalletTxState = {
      ...stateOf([
        requested(win),
        attempted(1),
        failedWith(1, true),
        { type: 'WinDeadLettered', data: { attempts: 1, lastError: 'timeout', at: now } },
      ]),
      deadLetterReason: undefined,
    };
    expect(replyFromRecord(parked)?.reason).toBe('dead-lettered after 1 attempt(s): timeout: no reply within 4000 ms');
    expect(deadLetterOf(parked)).toMatchObject({
      reason: 'delivery_failed',
      lastError: 'timeout: no reply within 4000 ms',
    });
  });

  it('nothing while the delivery is going on', () => {
    expect(replyFromRecord(stateOf([requested(win), attempted(1), failedWith(1, false)]))).toBeUndefined();
  });
});

describe('what is still owed to others', () => {
  const failedBet: WalletTxEvent[] = [
    requested(bet),
    attempted(1),
    failedWith(1, true, 'timeout: no reply within 3000 ms'),
    { type: 'CancelRequested', data: { cancelTransactionId: 900, refTransactionId: bet.transactionId, at: now } },
  ];

  it('a cancel until its OK is recorded', () => {
    expect(walletCancelDelivery.parse(pendingCancel(stateOf(failedBet)))).toEqual({
      refTransactionId: 101,
      cancelTransactionId: 900,
      operatorId: 'demo',
      playerId: 'player_42',
    });
    expect(
      pendingCancel(
        stateOf([...failedBet, attempted(1, { command: 'cancel' }), { type: 'CancelSucceeded', data: { at: now } }]),
      ),
    ).toBeUndefined();
  });

  it('the dead letter of a parked win, with the request and the attempts', () => {
    const letter = deadLetterOf(
      stateOf([
        requested(win),
        attempted(1),
        failedWith(1, false),
        attempted(2),
        failedWith(2, false),
        attempted(3),
        failedWith(3, true),
        { type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at: now } },
      ]),
    );
    expect(walletDeadLetter.parse(letter)).toEqual({
      transactionId: 102,
      operatorId: 'demo',
      playerId: 'player_42',
      request: win,
      reason: 'delivery_failed',
      attempts: 3,
      lastError: 'timeout: no reply within 4000 ms',
      deadLetteredAt: now,
    });
    expect(deadLetterOf(stateOf([requested(win), attempted(4, { redrive: true })]))).toBeUndefined();
  });

  it('a win parked for another reason after a failed attempt: the dead letter says that reason, not the failure', () => {
    const state = stateOf([
      requested(win),
      attempted(1),
      failedWith(1, false),
      {
        type: 'WinDeadLettered',
        data: { attempts: 1, lastError: 'the decider refused the win', at: now, reason: 'decision_refused' },
      },
    ]);
    expect(deadLetterOf(state)).toMatchObject({ reason: 'decision_refused', lastError: 'the decider refused the win' });
    expect(replyFromRecord(state)?.reason).toBe('dead-lettered (decision_refused): the decider refused the win');
  });
});
