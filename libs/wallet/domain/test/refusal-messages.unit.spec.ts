/**
 * A refusal of the walletTx decider reaches the dispatcher's log and, through the gateway, the
 * operator: its message names the transaction and what stands in the way, not only the code.
 */
import { describe, it } from '@jest/globals';
import type { WalletTxEvent } from '@reelstream/contracts';
import { deciderSpecification } from '@reelstream/testing';
import { walletTxDecider, type OperatorAnswer } from '../src/index.js';
import { attempted, bet, failedWith, metadata, now, requested, win } from './fixtures.js';

const { given } = deciderSpecification(walletTxDecider);

const timeout: OperatorAnswer = { kind: 'no_reply', cause: 'timeout', reason: 'no reply within 3000 ms' };
const ok: OperatorAnswer = { kind: 'reply', statusCode: 'OK', balanceMinor: 1 };
const deliveredWin: WalletTxEvent[] = [
  requested(win),
  attempted(1),
  { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 5, at: now } },
];
const canceledBet: WalletTxEvent[] = [
  requested(bet),
  attempted(1),
  failedWith(1, true, 'timeout: no reply within 3000 ms'),
  { type: 'CancelRequested', data: { cancelTransactionId: 900, refTransactionId: bet.transactionId, at: now } },
];
const notRecorded = { code: 'WALLET_TX_NOT_RECORDED', message: 'no request is recorded for this transaction' } as const;

describe('the messages of the walletTx refusals', () => {
  it('a transactionId taken by another request names the command and player it already is', () => {
    given([requested(bet)])
      .when({ type: 'RecordRequest', data: { request: { ...bet, amountMinor: 151 } }, metadata })
      .thenFails({
        code: 'TRANSACTION_ID_CONFLICT',
        message: 'transactionId 101 is already a bet of player player_42 with other fields',
      });
  });

  it('every step of a transaction never requested says no request is recorded', () => {
    given([]).when({ type: 'StartAttempt', data: {}, metadata }).thenFails(notRecorded);
    given([]).when({ type: 'StartRedrive', data: {}, metadata }).thenFails(notRecorded);
    given([])
      .when({ type: 'RecordAnswer', data: { answer: ok }, metadata })
      .thenFails(notRecorded);
    given([])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 900 }, metadata })
      .thenFails(notRecorded);
    given([])
      .when({ type: 'DeadLetterWin', data: { reason: 'operator_not_configured', detail: 'x' }, metadata })
      .thenFails(notRecorded);
  });

  it('an attempt of a settled transaction names the outcome already recorded', () => {
    given(deliveredWin)
      .when({ type: 'StartAttempt', data: {}, metadata })
      .thenFails({ code: 'WALLET_TX_SETTLED', message: 'transaction 102 is already succeeded' });
  });

  it('a re-drive of a transaction that is not dead-lettered names its status', () => {
    given([requested(win), attempted(1)])
      .when({ type: 'StartRedrive', data: {}, metadata })
      .thenFails({ code: 'WALLET_TX_NOT_DEAD_LETTERED', message: 'transaction 102 is pending, not dead-lettered' });
  });

  it('an answer nobody waits for names the transaction', () => {
    given([requested(bet)])
      .when({ type: 'RecordAnswer', data: { answer: ok }, metadata })
      .thenFails({
        code: 'WALLET_NO_ATTEMPT_IN_FLIGHT',
        message: 'transaction 101 has no attempt waiting for its outcome',
      });
  });

  it('a failed bet without the cancel’s transactionId names the bet', () => {
    given([requested(bet), attempted(1)])
      .when({ type: 'RecordAnswer', data: { answer: timeout }, metadata })
      .thenFails({
        code: 'WALLET_CANCEL_ID_MISSING',
        message: 'the failed bet 101 needs a cancel with its own transactionId (D9)',
      });
  });

  it('an expiry names the attempt in flight, or the deadline not yet passed and the instant', () => {
    given([requested(bet), attempted(1)])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 900 }, metadata })
      .thenFails({
        code: 'WALLET_DEADLINE_NOT_PASSED',
        message: 'transaction 101 has an attempt in flight: its answer is recorded instead',
      });
    given([requested(bet)])
      .when({
        type: 'ExpireRequest',
        data: { cancelTransactionId: 900 },
        metadata: { now: '2026-05-01T10:00:02.750Z' },
      })
      .thenFails({
        code: 'WALLET_DEADLINE_NOT_PASSED',
        message: 'transaction 101 is within its deadline (2026-05-01T10:00:03.000Z) at 2026-05-01T10:00:02.750Z',
      });
  });

  it('an expiry of a win says it has no deadline', () => {
    given([requested(win)])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 900 }, metadata })
      .thenFails({
        code: 'WALLET_DEADLINE_NOT_PASSED',
        message: `transaction 102 is within its deadline (none) at ${now}`,
      });
  });

  it('a cancel step says whether no cancel was requested, none is left to send, or none is in flight', () => {
    given([requested(bet)])
      .when({ type: 'StartCancelAttempt', data: {}, metadata })
      .thenFails({ code: 'WALLET_NO_CANCEL_PENDING', message: 'no cancel is waiting for delivery' });
    given([requested(bet)])
      .when({ type: 'RecordCancelAnswer', data: { answer: ok }, metadata })
      .thenFails({ code: 'WALLET_NO_CANCEL_PENDING', message: 'no cancel was requested' });
    given(canceledBet)
      .when({ type: 'RecordCancelAnswer', data: { answer: ok }, metadata })
      .thenFails({ code: 'WALLET_NO_ATTEMPT_IN_FLIGHT', message: 'no cancel attempt is waiting for its outcome' });
  });

  it('a dead letter of a bet or of a delivered win names the transaction', () => {
    given([requested(bet)])
      .when({ type: 'DeadLetterWin', data: { reason: 'decision_refused', detail: 'x' }, metadata })
      .thenFails({
        code: 'WALLET_TX_NOT_A_WIN',
        message: 'transaction 101 is a bet: only wins are dead-lettered (D11)',
      });
    given(deliveredWin)
      .when({ type: 'DeadLetterWin', data: { reason: 'decision_refused', detail: 'x' }, metadata })
      .thenFails({ code: 'WALLET_TX_SETTLED', message: 'transaction 102 is already succeeded' });
  });

  it('abandoning a transaction never requested, or a win, says which', () => {
    const abandon = { type: 'AbandonStake', data: { cancelTransactionId: 904, error: 'x' }, metadata } as const;
    given([]).when(abandon).thenFails(notRecorded);
    given([requested(win), attempted(1)])
      .when(abandon)
      .thenFails({
        code: 'WALLET_TX_NOT_A_STAKE',
        message: 'transaction 102 is a win: a win that cannot be handled is dead-lettered (D11)',
      });
  });
});
