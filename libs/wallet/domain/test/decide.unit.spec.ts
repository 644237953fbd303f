import { describe, expect, it } from '@jest/globals';
import { eventToAppend, type WalletTxEvent } from '@reelstream/contracts';
import { deciderSpecification } from '@reelstream/testing';
import {
  initialWalletTxState,
  needsCancelTransactionId,
  walletTxDecider,
  type OperatorAnswer,
  type WalletTxState,
} from '../src/index.js';
import { attempted, bet, betwin, conflictOf, failedWith, metadata, now, requested, stateOf, win } from './fixtures.js';

const ok = (balanceMinor: number): OperatorAnswer => ({ kind: 'reply', statusCode: 'OK', balanceMinor });
const timeout: OperatorAnswer = { kind: 'no_reply', cause: 'timeout', reason: 'no reply within 3000 ms' };
const notEnoughMoney: OperatorAnswer = { kind: 'reply', statusCode: 'ERR_NOT_ENOUGH_MONEY', balanceMinor: 40 };

/** given(events).when(command) → then(events) | thenFails({ code }), as in emmett's decider specs. */
const { given } = deciderSpecification(walletTxDecider, {
  // What the decider writes must pass the contracts' event schemas.
  eachEvent: (event) =>
    expect(() =>
      eventToAppend(event, { correlationId: 'c', causationId: 'c', operatorId: 'demo', occurredAt: now }),
    ).not.toThrow(),
});

describe('RecordRequest: a transactionId names one request', () => {
  it('records a new request', () => {
    given([])
      .when({ type: 'RecordRequest', data: { request: bet }, metadata })
      .then([requested(bet)]);
  });

  it('accepts the same request again as already recorded, whatever its key order', () => {
    const reordered = Object.fromEntries(Object.entries(bet).reverse()) as typeof bet;
    given([requested(bet)])
      .when({ type: 'RecordRequest', data: { request: reordered }, metadata })
      .then([]);
  });

  it('refuses the transactionId with other fields', () => {
    given([requested(bet)])
      .when({ type: 'RecordRequest', data: { request: { ...bet, amountMinor: 151 } }, metadata })
      .thenFails({ code: 'TRANSACTION_ID_CONFLICT', retriable: false });
  });
});

describe('StartAttempt', () => {
  it('starts attempt 1 of a requested transaction', () => {
    given([requested(bet)])
      .when({ type: 'StartAttempt', data: {}, metadata })
      .then([attempted(1)]);
  });

  it('sends again, as the same attempt, one whose outcome a crash lost', () => {
    given([requested(bet), attempted(1)])
      .when({ type: 'StartAttempt', data: {}, metadata })
      .then([attempted(1, { recovery: true })]);
  });

  it('starts the next attempt of a win after a failed one, and none after the outcome is recorded', () => {
    given([requested(win), attempted(1), failedWith(1, false)])
      .when({ type: 'StartAttempt', data: {}, metadata })
      .then([attempted(2)]);
    given([
      requested(win),
      attempted(1),
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 5, at: now } },
    ])
      .when({ type: 'StartAttempt', data: {}, metadata })
      .thenFails({ code: 'WALLET_TX_SETTLED', retriable: false });
    given([])
      .when({ type: 'StartAttempt', data: {}, metadata })
      .thenFails({ code: 'WALLET_TX_NOT_RECORDED', retriable: false });
  });

  it('refuses a further attempt of a failed bet and of a dead-lettered win as settled, naming the outcome', () => {
    given([requested(bet), attempted(1), failedWith(1, true)])
      .when({ type: 'StartAttempt', data: {}, metadata })
      .thenFails({ code: 'WALLET_TX_SETTLED', message: 'transaction 101 is already failed' });
    given([
      requested(win),
      attempted(3),
      failedWith(3, true),
      { type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at: now } },
    ])
      .when({ type: 'StartAttempt', data: {}, metadata })
      .thenFails({ code: 'WALLET_TX_SETTLED', message: 'transaction 102 is already dead_lettered' });
  });

  it('starts the third attempt of a win, and refuses a fourth when three failures were recorded as not final', () => {
    const twoFailed = [requested(win), attempted(1), failedWith(1, false), attempted(2), failedWith(2, false)];
    given(twoFailed)
      .when({ type: 'StartAttempt', data: {}, metadata })
      .then([attempted(3)]);
    given([...twoFailed, attempted(3), failedWith(3, false)])
      .when({ type: 'StartAttempt', data: {}, metadata })
      .thenFails({ code: 'WALLET_ATTEMPTS_EXHAUSTED', message: 'transaction 102 has had its 3 attempt(s)' });
  });
});

describe('RecordAnswer: bet and betwin get one attempt, then a cancel (spec §6.1, §6.3, D9)', () => {
  it('an OK reply records the balance', () => {
    given([requested(bet), attempted(1)])
      .when({ type: 'RecordAnswer', data: { answer: ok(9_850) }, metadata })
      .then([{ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 9_850, at: now } }]);
  });

  it('a non-OK code fails the bet for good and requests a cancel with its own transactionId', () => {
    given([requested(bet), attempted(1)])
      .when({ type: 'RecordAnswer', data: { answer: notEnoughMoney, cancelTransactionId: 900 }, metadata })
      .then([
        {
          type: 'WalletFailed',
          data: { statusCode: 'ERR_NOT_ENOUGH_MONEY', balanceMinor: 40, attempt: 1, final: true, at: now },
        },
        { type: 'CancelRequested', data: { cancelTransactionId: 900, refTransactionId: bet.transactionId, at: now } },
      ]);
  });

  it('a time-out of a betwin does the same, recording why', () => {
    given([requested(betwin), attempted(1)])
      .when({ type: 'RecordAnswer', data: { answer: timeout, cancelTransactionId: 901 }, metadata })
      .then([
        { type: 'WalletFailed', data: { error: 'timeout: no reply within 3000 ms', attempt: 1, final: true, at: now } },
        {
          type: 'CancelRequested',
          data: { cancelTransactionId: 901, refTransactionId: betwin.transactionId, at: now },
        },
      ]);
  });

  it('records an exact balance without a balanceSent field', () => {
    const { decision } = given([requested(bet), attempted(1)]).when({
      type: 'RecordAnswer',
      data: { answer: ok(9_850) },
      metadata,
    });
    expect(decision).toStrictEqual([
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 9_850, at: now } },
    ]);
  });

  it('records a float balance rounded to minor units and, for the audit, as the operator sent it', () => {
    const float: OperatorAnswer = {
      kind: 'reply',
      statusCode: 'OK',
      balanceMinor: 9_990,
      balanceSent: 99.89999999999999,
    };
    given([requested(bet), attempted(1)])
      .when({ type: 'RecordAnswer', data: { answer: float }, metadata })
      .then([
        {
          type: 'WalletSucceeded',
          data: { statusCode: 'OK', balanceMinor: 9_990, balanceSent: 99.89999999999999, at: now },
        },
      ]);
  });

  it('refuses to fail a bet without the cancel’s transactionId, and an answer nobody waits for', () => {
    given([requested(bet), attempted(1)])
      .when({ type: 'RecordAnswer', data: { answer: timeout }, metadata })
      .thenFails({ code: 'WALLET_CANCEL_ID_MISSING', retriable: false });
    given([requested(bet)])
      .when({ type: 'RecordAnswer', data: { answer: ok(1) }, metadata })
      .thenFails({ code: 'WALLET_NO_ATTEMPT_IN_FLIGHT', retriable: false });
  });
});

describe('ExpireRequest: a bet or betwin taken after its deadline is never sent (spec §6.1, D9)', () => {
  const due = { ...bet, deadline: '2026-05-01T10:00:03.000Z' };
  const at = (instant: string) => ({ now: instant });

  it('records it failed for good with no attempt, and its cancel', () => {
    given([requested(due)])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 901 }, metadata: at('2026-05-01T10:00:02.751Z') })
      .then([
        {
          type: 'WalletFailed',
          data: {
            error:
              'timeout: not sent, its deadline 2026-05-01T10:00:03.000Z had passed when the dispatcher took it at 2026-05-01T10:00:02.751Z',
            attempt: 0,
            final: true,
            at: '2026-05-01T10:00:02.751Z',
          },
        },
        {
          type: 'CancelRequested',
          data: { cancelTransactionId: 901, refTransactionId: due.transactionId, at: '2026-05-01T10:00:02.751Z' },
        },
      ]);
  });

  it('records nothing for a bet whose outcome is already recorded, even past its deadline', () => {
    const late = at('2026-05-01T10:00:09.000Z');
    given([
      requested(due),
      attempted(1),
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 1, at: now } },
    ])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 901 }, metadata: late })
      .then([]);
    given([requested(due), attempted(1), failedWith(1, true)])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 901 }, metadata: late })
      .then([]);
  });

  it('refuses while 250 ms or more of the window is left, or once an attempt is in flight (its answer is recorded instead)', () => {
    given([requested(due)])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 901 }, metadata: at('2026-05-01T10:00:02.750Z') })
      .thenFails({ code: 'WALLET_DEADLINE_NOT_PASSED', retriable: false });
    given([requested(due), attempted(1)])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 901 }, metadata: at('2026-05-01T10:00:09.000Z') })
      .thenFails({ code: 'WALLET_DEADLINE_NOT_PASSED', retriable: false });
  });

  it('takes requestedAt + 3 s as the deadline of a request recorded without one, and never expires a win', () => {
    const { deadline: _none, ...old } = due;
    expect(stateOf([requested(old)]).status).toBe('pending');
    given([requested(old)])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 902 }, metadata: at('2026-05-01T10:00:03.000Z') })
      .then([
        {
          type: 'WalletFailed',
          data: {
            error:
              'timeout: not sent, its deadline 2026-05-01T10:00:03.000Z had passed when the dispatcher took it at 2026-05-01T10:00:03.000Z',
            attempt: 0,
            final: true,
            at: '2026-05-01T10:00:03.000Z',
          },
        },
        {
          type: 'CancelRequested',
          data: { cancelTransactionId: 902, refTransactionId: old.transactionId, at: '2026-05-01T10:00:03.000Z' },
        },
      ]);
    given([requested(win)])
      .when({ type: 'ExpireRequest', data: { cancelTransactionId: 903 }, metadata: at('2026-05-02T10:00:00.000Z') })
      .thenFails({ code: 'WALLET_DEADLINE_NOT_PASSED', retriable: false });
  });

  it('takes a bet recorded without a deadline and the same bet with requestedAt + 3 s as one transaction, any other deadline not', () => {
    const { deadline: _none, ...old } = due;
    given([requested(old)])
      .when({ type: 'RecordRequest', data: { request: due }, metadata })
      .then([]);
    given([requested(old)])
      .when({ type: 'RecordRequest', data: { request: { ...due, deadline: '2026-05-01T10:00:04.000Z' } }, metadata })
      .thenFails({ code: 'TRANSACTION_ID_CONFLICT', retriable: false });
  });
});

describe('AbandonStake: a bet or betwin its handler kept failing on ends failed, with its cancel (D9)', () => {
  const abandon = (error = 'TypeError: x is undefined') => ({
    type: 'AbandonStake' as const,
    data: { cancelTransactionId: 904, error },
    metadata,
  });

  it('records a bet whose attempt is in flight failed for good, at that attempt, and its cancel', () => {
    given([requested(bet), attempted(1)])
      .when(abandon())
      .then([
        {
          type: 'WalletFailed',
          data: { error: 'abandoned: TypeError: x is undefined', attempt: 1, final: true, at: now },
        },
        { type: 'CancelRequested', data: { cancelTransactionId: 904, refTransactionId: bet.transactionId, at: now } },
      ]);
    const state = stateOf([requested(bet), attempted(1)]);
    expect(
      walletTxDecider.evolve(state, { type: 'WalletFailed', data: { error: 'e', attempt: 1, final: true, at: now } }),
    ).toMatchObject({ status: 'failed', inFlight: false });
  });

  it('cancels a betwin never sent too (attempt 0), and cuts a long error at 1,000 characters', () => {
    const events = walletTxDecider.decide(abandon('e'.repeat(2_000)), stateOf([requested(betwin)]));
    expect(events).toEqual([
      {
        type: 'WalletFailed',
        data: { error: `abandoned: ${'e'.repeat(988)}…`, attempt: 0, final: true, at: now },
      },
      { type: 'CancelRequested', data: { cancelTransactionId: 904, refTransactionId: betwin.transactionId, at: now } },
    ]);
  });

  it('records nothing for a stake whose outcome is already recorded', () => {
    given([
      requested(bet),
      attempted(1),
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 1, at: now } },
    ])
      .when(abandon())
      .then([]);
    given([requested(bet), attempted(1), failedWith(1, true)])
      .when(abandon())
      .then([]);
  });

  it('refuses a transaction with no request recorded, and a win (a win is dead-lettered instead)', () => {
    given([]).when(abandon()).thenFails({ code: 'WALLET_TX_NOT_RECORDED', retriable: false });
    given([requested(win), attempted(1)])
      .when(abandon())
      .thenFails({ code: 'WALLET_TX_NOT_A_STAKE', retriable: false });
  });
});

describe('RecordAnswer: a win gets 3 attempts, then the dead letters (spec §6.2, D11)', () => {
  it('a failed first or second attempt is not final', () => {
    given([requested(win), attempted(1)])
      .when({ type: 'RecordAnswer', data: { answer: timeout }, metadata })
      .then([
        {
          type: 'WalletFailed',
          data: { error: 'timeout: no reply within 3000 ms', attempt: 1, final: false, at: now },
        },
      ]);
    given([requested(win), attempted(1), failedWith(1, false), attempted(2)])
      .when({
        type: 'RecordAnswer',
        data: { answer: { kind: 'reply', statusCode: 'ERR_UNKNOWN', balanceMinor: 0 } },
        metadata,
      })
      .then([
        {
          type: 'WalletFailed',
          data: { statusCode: 'ERR_UNKNOWN', balanceMinor: 0, attempt: 2, final: false, at: now },
        },
      ]);
  });

  it('the third failure is final and parks the win', () => {
    const malformed: OperatorAnswer = { kind: 'no_reply', cause: 'malformed', reason: 'balance: expected number' };
    given([requested(win), attempted(1), failedWith(1, false), attempted(2), failedWith(2, false), attempted(3)])
      .when({ type: 'RecordAnswer', data: { answer: malformed }, metadata })
      .then([
        {
          type: 'WalletFailed',
          data: { error: 'malformed: balance: expected number', attempt: 3, final: true, at: now },
        },
        {
          type: 'WinDeadLettered',
          data: { attempts: 3, lastError: 'malformed: balance: expected number', at: now, reason: 'delivery_failed' },
        },
      ]);
  });
});

describe('StartRedrive: a dead-lettered win gets a new delivery (D11)', () => {
  const deadLettered = [
    requested(win),
    attempted(1),
    failedWith(1, false),
    attempted(2),
    failedWith(2, false),
    attempted(3),
    failedWith(3, true),
    { type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at: now } } as WalletTxEvent,
  ];

  it('continues the attempt count, marked as a re-drive, and allows three attempts again', () => {
    given(deadLettered)
      .when({ type: 'StartRedrive', data: {}, metadata })
      .then([attempted(4, { redrive: true })]);
    given([...deadLettered, attempted(4, { redrive: true })])
      .when({ type: 'RecordAnswer', data: { answer: timeout }, metadata })
      .then([
        {
          type: 'WalletFailed',
          data: { error: 'timeout: no reply within 3000 ms', attempt: 4, final: false, at: now },
        },
      ]);
    given([
      ...deadLettered,
      attempted(4, { redrive: true }),
      failedWith(4, false),
      attempted(5),
      failedWith(5, false),
      attempted(6),
    ])
      .when({ type: 'RecordAnswer', data: { answer: timeout }, metadata })
      .then([
        { type: 'WalletFailed', data: { error: 'timeout: no reply within 3000 ms', attempt: 6, final: true, at: now } },
        {
          type: 'WinDeadLettered',
          data: { attempts: 6, lastError: 'timeout: no reply within 3000 ms', at: now, reason: 'delivery_failed' },
        },
      ]);
  });

  it('marks a re-drive the dispatcher’s schedule asked for as scheduled, and only that one', () => {
    given(deadLettered)
      .when({ type: 'StartRedrive', data: { scheduled: true }, metadata })
      .then([attempted(4, { redrive: true, scheduled: true })]);
    const { decision } = given(deadLettered).when({ type: 'StartRedrive', data: { scheduled: false }, metadata });
    expect(decision).toStrictEqual([attempted(4, { redrive: true })]);
  });

  it('refuses to re-drive what is not dead-lettered', () => {
    given([requested(win), attempted(1)])
      .when({ type: 'StartRedrive', data: {}, metadata })
      .thenFails({ code: 'WALLET_TX_NOT_DEAD_LETTERED', retriable: false });
    given([])
      .when({ type: 'StartRedrive', data: {}, metadata })
      .thenFails({ code: 'WALLET_TX_NOT_RECORDED', retriable: false });
  });
});

describe('the cancel: attempted until the operator answers OK (D9)', () => {
  const canceled: WalletTxEvent[] = [
    requested(bet),
    attempted(1),
    { type: 'WalletFailed', data: { statusCode: 'ERR_UNKNOWN', balanceMinor: 0, attempt: 1, final: true, at: now } },
    { type: 'CancelRequested', data: { cancelTransactionId: 900, refTransactionId: bet.transactionId, at: now } },
  ];

  it('numbers its own attempts and re-sends one whose outcome is unknown', () => {
    given(canceled)
      .when({ type: 'StartCancelAttempt', data: {}, metadata })
      .then([attempted(1, { command: 'cancel' })]);
    given([...canceled, attempted(1, { command: 'cancel' })])
      .when({ type: 'StartCancelAttempt', data: {}, metadata })
      .then([attempted(1, { command: 'cancel', recovery: true })]);
  });

  it('records a failed attempt as not final, and OK as CancelSucceeded with the balance', () => {
    given([...canceled, attempted(1, { command: 'cancel' })])
      .when({ type: 'RecordCancelAnswer', data: { answer: timeout }, metadata })
      .then([
        {
          type: 'WalletFailed',
          data: { error: 'timeout: no reply within 3000 ms', attempt: 1, final: false, command: 'cancel', at: now },
        },
      ]);
    given([
      ...canceled,
      attempted(1, { command: 'cancel' }),
      {
        type: 'WalletFailed',
        data: { error: 'network: ECONNRESET', attempt: 1, final: false, command: 'cancel', at: now },
      },
      attempted(2, { command: 'cancel' }),
    ])
      .when({ type: 'RecordCancelAnswer', data: { answer: ok(10_000) }, metadata })
      .then([{ type: 'CancelSucceeded', data: { at: now, balanceMinor: 10_000 } }]);
  });

  it('after a failed cancel attempt starts the next one, not a re-send of the failed one', () => {
    given([
      ...canceled,
      attempted(1, { command: 'cancel' }),
      {
        type: 'WalletFailed',
        data: { error: 'network: ECONNRESET', attempt: 1, final: false, command: 'cancel', at: now },
      },
    ])
      .when({ type: 'StartCancelAttempt', data: {}, metadata })
      .then([attempted(2, { command: 'cancel' })]);
  });

  it('after the OK there is nothing left to send, and a late answer changes nothing', () => {
    const done: WalletTxEvent[] = [
      ...canceled,
      attempted(1, { command: 'cancel' }),
      { type: 'CancelSucceeded', data: { at: now } },
    ];
    given(done)
      .when({ type: 'StartCancelAttempt', data: {}, metadata })
      .thenFails({ code: 'WALLET_NO_CANCEL_PENDING', retriable: false });
    given(done)
      .when({ type: 'RecordCancelAnswer', data: { answer: ok(1) }, metadata })
      .then([]);
    given([requested(bet)])
      .when({ type: 'StartCancelAttempt', data: {}, metadata })
      .thenFails({ code: 'WALLET_NO_CANCEL_PENDING', retriable: false });
  });
});

describe('DeadLetterWin: a win that is not delivered now is parked, never dropped', () => {
  it('parks the stream’s own win before any attempt (operator not configured) and is idempotent', () => {
    const parked: WalletTxEvent = {
      type: 'WinDeadLettered',
      data: { attempts: 0, lastError: 'operator demo is not configured', at: now, reason: 'operator_not_configured' },
    };
    given([requested(win)])
      .when({
        type: 'DeadLetterWin',
        data: { reason: 'operator_not_configured', detail: 'operator demo is not configured' },
        metadata,
      })
      .then([parked]);
    given([requested(win), parked])
      .when({ type: 'DeadLetterWin', data: { reason: 'operator_not_configured', detail: 'again' }, metadata })
      .then([]);
    const state = stateOf([requested(win), parked]);
    expect(state).toMatchObject({
      status: 'dead_lettered',
      deadLetterReason: 'operator_not_configured',
      deadLetterError: 'operator demo is not configured',
      attempts: 0,
    });
    // A re-drive of it is a new delivery like any other.
    given([requested(win), parked])
      .when({ type: 'StartRedrive', data: {}, metadata })
      .then([attempted(1, { redrive: true })]);
  });

  it('records a win whose transactionId names another request beside it, leaving the recorded one as it is', () => {
    const other = { ...win, amountMinor: 999 };
    const conflict = conflictOf();
    const delivered = [
      requested(win),
      attempted(1),
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 500, at: now } } as WalletTxEvent,
    ];
    given(delivered)
      .when({
        type: 'DeadLetterWin',
        data: { reason: 'transaction_id_conflict', detail: 'transactionId 102 is taken', request: other },
        metadata,
      })
      .then([conflict]);
    given([...delivered, conflict])
      .when({
        type: 'DeadLetterWin',
        data: { reason: 'transaction_id_conflict', detail: 'again', request: other },
        metadata,
      })
      .then([]);
    const state = stateOf([...delivered, conflict]);
    expect(state.status).toBe('succeeded');
    expect(state.conflicts).toEqual([
      { request: other, reason: 'transaction_id_conflict', detail: 'transactionId 102 is taken', at: now },
    ]);
  });

  it('parks the stream’s own win as its own when the command carries that same win', () => {
    given([requested(win), attempted(1), failedWith(1, false)])
      .when({
        type: 'DeadLetterWin',
        data: { reason: 'decision_refused', detail: 'the record refused the step', request: win },
        metadata,
      })
      .then([
        {
          type: 'WinDeadLettered',
          data: { attempts: 1, lastError: 'the record refused the step', at: now, reason: 'decision_refused' },
        },
      ]);
  });

  it('keeps a detail of 1,000 characters as it is and clips a longer one to 1,000 with an ellipsis', () => {
    const park = (detail: string) =>
      given([requested(win)]).when({ type: 'DeadLetterWin', data: { reason: 'decision_refused', detail }, metadata });
    const parked = (lastError: string): WalletTxEvent[] => [
      { type: 'WinDeadLettered', data: { attempts: 0, lastError, at: now, reason: 'decision_refused' } },
    ];
    park('x'.repeat(1_000)).then(parked('x'.repeat(1_000)));
    park(`${'x'.repeat(999)}yz`).then(parked(`${'x'.repeat(999)}…`));
  });

  it('refuses to park a bet, a delivered win, or nothing', () => {
    given([requested(bet)])
      .when({ type: 'DeadLetterWin', data: { reason: 'decision_refused', detail: 'x' }, metadata })
      .thenFails({ code: 'WALLET_TX_NOT_A_WIN', retriable: false });
    given([
      requested(win),
      attempted(1),
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 1, at: now } },
    ])
      .when({ type: 'DeadLetterWin', data: { reason: 'decision_refused', detail: 'x' }, metadata })
      .thenFails({ code: 'WALLET_TX_SETTLED', retriable: false });
    given([])
      .when({ type: 'DeadLetterWin', data: { reason: 'operator_not_configured', detail: 'x' }, metadata })
      .thenFails({ code: 'WALLET_TX_NOT_RECORDED', retriable: false });
  });
});

describe('RefuseWin: a win that does not match its source is recorded, once, and changes nothing else', () => {
  it('records the refusal beside the stream’s own history; the same refusal again records nothing', () => {
    const refused: WalletTxEvent = {
      type: 'WinRefused',
      data: { request: win, reason: 'no_source', detail: 'the win names no source event', at: now },
    };
    given([])
      .when({
        type: 'RefuseWin',
        data: { request: win, reason: 'no_source', detail: 'the win names no source event' },
        metadata,
      })
      .then([refused]);
    given([refused])
      .when({ type: 'RefuseWin', data: { request: win, reason: 'no_source', detail: 'again' }, metadata })
      .then([]);
    const state = stateOf([refused]);
    expect(state).toMatchObject({
      status: 'new',
      request: undefined,
      refused: [{ request: win, reason: 'no_source' }],
    });
    // The real win with this transactionId is still recorded as usual.
    given([refused])
      .when({ type: 'RecordRequest', data: { request: win }, metadata })
      .then([requested(win)]);
  });

  it('a win with a source is not taken for an earlier refusal of the same fields without one', () => {
    const sourced = { ...win, source: { stream: 'round-201', revision: 1, eventId: 'e-1' } };
    const refused: WalletTxEvent = {
      type: 'WinRefused',
      data: { request: win, reason: 'no_source', detail: 'no source', at: now },
    };
    given([refused])
      .when({ type: 'RefuseWin', data: { request: sourced, reason: 'source_mismatch', detail: 'differs' }, metadata })
      .then([
        { type: 'WinRefused', data: { request: sourced, reason: 'source_mismatch', detail: 'differs', at: now } },
      ]);
  });
});

describe('a win recorded before wins named their source is the same transaction as its republication with one', () => {
  it('RecordRequest accepts it as already recorded', () => {
    const sourced = { ...win, source: { stream: 'round-201', revision: 1, eventId: 'e-1' } };
    given([requested(win)])
      .when({ type: 'RecordRequest', data: { request: sourced }, metadata })
      .then([]);
    given([requested(win)])
      .when({ type: 'RecordRequest', data: { request: { ...sourced, amountMinor: 1 } }, metadata })
      .thenFails({ code: 'TRANSACTION_ID_CONFLICT', retriable: false });
  });
});

describe('RefuseStake: a bet or betwin that does not match its round is recorded, once, and never sent', () => {
  const refused: WalletTxEvent = {
    type: 'StakeRefused',
    data: { request: bet, reason: 'source_mismatch', detail: 'the round started with 100', at: now },
  };

  it('records the refusal beside the stream’s own history', () => {
    given([])
      .when({
        type: 'RefuseStake',
        data: { request: bet, reason: 'source_mismatch', detail: 'the round started with 100' },
        metadata,
      })
      .then([refused]);
    expect(stateOf([refused])).toMatchObject({
      status: 'new',
      request: undefined,
      refusedStakes: [{ request: bet, reason: 'source_mismatch', detail: 'the round started with 100', at: now }],
    });
  });

  it('records the same bet again as nothing, and another bet under the transactionId as a refusal of its own', () => {
    given([refused])
      .when({ type: 'RefuseStake', data: { request: bet, reason: 'source_not_found', detail: 'again' }, metadata })
      .then([]);
    const other = { ...bet, amountMinor: 151 };
    given([refused])
      .when({
        type: 'RefuseStake',
        data: { request: other, reason: 'source_mismatch', detail: 'x'.repeat(1_001) },
        metadata,
      })
      .then([
        {
          type: 'StakeRefused',
          data: { request: other, reason: 'source_mismatch', detail: `${'x'.repeat(999)}…`, at: now },
        },
      ]);
  });
});

describe('needsCancelTransactionId: whether recording an answer ends the delivery with a cancel (D9)', () => {
  it('a failed answer to the bet’s attempt in flight: yes; an OK, no attempt in flight, or no request: no', () => {
    const inFlight = stateOf([requested(bet), attempted(1)]);
    expect(needsCancelTransactionId(inFlight, timeout)).toBe(true);
    expect(needsCancelTransactionId(inFlight, notEnoughMoney)).toBe(true);
    expect(needsCancelTransactionId(inFlight, ok(1))).toBe(false);
    expect(needsCancelTransactionId(stateOf([requested(bet)]), timeout)).toBe(false);
    expect(needsCancelTransactionId(initialWalletTxState, timeout)).toBe(false);
  });

  it('a win never: its failures are retried, and the last one is dead-lettered', () => {
    const attempts = [requested(win), attempted(1), failedWith(1, false), attempted(2), failedWith(2, false)];
    expect(needsCancelTransactionId(stateOf([requested(win), attempted(1)]), timeout)).toBe(false);
    expect(needsCancelTransactionId(stateOf([...attempts, attempted(3)]), timeout)).toBe(false);
  });

  it('asks exactly when recording the failure without the id is refused for the missing id', () => {
    const states: WalletTxState[] = [
      stateOf([requested(bet), attempted(1)]),
      stateOf([requested(betwin), attempted(1)]),
      stateOf([requested(win), attempted(3)]),
      // An attempt in flight that the delivery does not count: not its last one, so not final.
      { ...stateOf([requested(bet)]), inFlight: true },
    ];
    for (const state of states) {
      const decision = walletTxDecider.decide({ type: 'RecordAnswer', data: { answer: timeout }, metadata }, state);
      const refusedForTheId = !Array.isArray(decision) && decision.code === 'WALLET_CANCEL_ID_MISSING';
      expect(needsCancelTransactionId(state, timeout)).toBe(refusedForTheId);
    }
  });
});
