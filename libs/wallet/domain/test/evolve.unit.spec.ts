import { describe, expect, it } from '@jest/globals';
import type { WalletTxEvent } from '@reelstream/contracts';
import { attempted, bet, failedWith, now, requested, stateOf, win } from './fixtures.js';

const canceled: WalletTxEvent[] = [
  requested(bet),
  attempted(1),
  failedWith(1, true, 'timeout: no reply within 3000 ms'),
  { type: 'CancelRequested', data: { cancelTransactionId: 900, refTransactionId: bet.transactionId, at: now } },
  attempted(1, { command: 'cancel' }),
];
const deadLettered: WalletTxEvent = {
  type: 'WinDeadLettered',
  data: { attempts: 3, lastError: 'timeout', at: now, reason: 'delivery_failed' },
};

describe('evolve: the state a walletTx stream folds to', () => {
  it('an OK ends the attempt in flight', () => {
    const state = stateOf([
      requested(win),
      attempted(1),
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 500, at: now } },
    ]);
    expect(state).toMatchObject({ status: 'succeeded', inFlight: false, balanceMinor: 500 });
  });

  it('a failure recorded with neither a code nor an error reads as ERR_UNKNOWN, failed', () => {
    const state = stateOf([
      requested(win),
      attempted(1),
      { type: 'WalletFailed', data: { attempt: 1, final: false, at: now } },
    ]);
    expect(state.lastFailure).toEqual({ statusCode: 'ERR_UNKNOWN', reason: 'failed' });
  });

  it('a cancel’s OK, as CancelSucceeded or as a WalletSucceeded about the cancel, ends its attempt in flight', () => {
    const settled = { inFlight: false, succeeded: true, balanceMinor: 10_000 };
    expect(
      stateOf([...canceled, { type: 'CancelSucceeded', data: { at: now, balanceMinor: 10_000 } }]).cancel,
    ).toMatchObject(settled);
    expect(
      stateOf([
        ...canceled,
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 10_000, command: 'cancel', at: now } },
      ]).cancel,
    ).toMatchObject(settled);
  });

  it('a failed cancel attempt is no longer in flight and keeps why it failed', () => {
    const state = stateOf([
      ...canceled,
      {
        type: 'WalletFailed',
        data: { error: 'network: ECONNRESET', attempt: 1, final: false, command: 'cancel', at: now },
      },
    ]);
    expect(state.cancel).toMatchObject({ inFlight: false, succeeded: false, lastError: 'network: ECONNRESET' });
  });

  it('a dead letter of the stream’s own win ends its attempt in flight and counts, also when it carries that win', () => {
    const once = stateOf([requested(win), attempted(3), deadLettered]);
    expect(once).toMatchObject({ status: 'dead_lettered', inFlight: false, deadLetters: 1, conflicts: [] });
    const twice = stateOf([
      requested(win),
      attempted(3),
      deadLettered,
      attempted(4, { redrive: true }),
      {
        type: 'WinDeadLettered',
        data: { attempts: 4, lastError: 'timeout', at: now, reason: 'delivery_failed', request: win },
      },
    ]);
    expect(twice).toMatchObject({ status: 'dead_lettered', inFlight: false, deadLetters: 2, conflicts: [] });
  });

  it('a refused stake is listed, and leaves the stream’s own request as it was', () => {
    const refused: WalletTxEvent = {
      type: 'StakeRefused',
      data: { request: bet, reason: 'source_not_found', detail: 'no RoundStarted for round 201', at: now },
    };
    expect(stateOf([requested(bet), refused])).toMatchObject({
      status: 'pending',
      request: bet,
      refusedStakes: [{ request: bet, reason: 'source_not_found', detail: 'no RoundStarted for round 201', at: now }],
    });
  });
});
