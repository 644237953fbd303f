import { describe, expect, it } from '@jest/globals';
import * as fc from 'fast-check';
import type { WalletTxEvent } from '@reelstream/contracts';
import {
  decide,
  evolve,
  initialWalletTxState,
  isWalletRefusal,
  needsCancelTransactionId,
  nextAttempt,
  replyFromRecord,
  type OperatorAnswer,
  type WalletTxCommand,
  type WalletTxState,
} from '../src/index.js';
import { bet, betwin, metadata, win } from './fixtures.js';

const answers: fc.Arbitrary<OperatorAnswer> = fc.oneof(
  fc
    .constantFrom('OK', 'ERR_UNKNOWN', 'ERR_NOT_AUTHENTICATED', 'ERR_INTEGRITY_CHECK_FAILED')
    .map((statusCode) => ({ kind: 'reply' as const, statusCode, balanceMinor: 100 })),
  fc
    .constantFrom('timeout', 'network', 'http_status', 'malformed')
    .map((cause) => ({ kind: 'no_reply' as const, cause, reason: 'x' })),
);

/**
 * Drives a delivery the way the dispatcher does — attempt, answer, attempt… — with a crash
 * (an attempt whose answer is lost) wherever the scenario says, until the record settles.
 */
function drive(
  request: typeof bet | typeof win | typeof betwin,
  scenario: readonly { answer: OperatorAnswer; crash: boolean }[],
) {
  let state: WalletTxState = initialWalletTxState;
  const log: WalletTxEvent[] = [];
  const apply = (command: WalletTxCommand) => {
    const events = decide(command, state);
    if (isWalletRefusal(events)) throw new Error(events.message);
    log.push(...events);
    state = events.reduce(evolve, state);
  };
  apply({ type: 'RecordRequest', data: { request }, metadata });
  let calls = 0;
  for (const step of scenario) {
    if (!nextAttempt(state)) break;
    apply({ type: 'StartAttempt', data: {}, metadata });
    calls += 1;
    if (step.crash) continue;
    apply({
      type: 'RecordAnswer',
      data: {
        answer: step.answer,
        ...(needsCancelTransactionId(state, step.answer) ? { cancelTransactionId: 9_000 } : {}),
      },
      metadata,
    });
  }
  return { state, log, calls };
}

describe('whatever the operator answers and wherever the dispatcher crashes', () => {
  const scenarios = fc.array(fc.record({ answer: answers, crash: fc.boolean() }), { minLength: 1, maxLength: 12 });

  it('a bet or betwin is sent as one attempt (re-sent only after a crash) and ends OK or canceled, never both', () => {
    fc.assert(
      fc.property(fc.constantFrom(bet, betwin), scenarios, (request, scenario) => {
        const { state, log } = drive(request, scenario);
        const fresh = log.filter((event) => event.type === 'WalletAttempted' && !event.data.recovery);
        expect(fresh).toHaveLength(1);
        if (state.status === 'succeeded') expect(state.cancel).toBeUndefined();
        if (state.status === 'failed') expect(state.cancel?.cancelTransactionId).toBe(9_000);
        if (replyFromRecord(state)) expect(['succeeded', 'failed']).toContain(state.status);
      }),
    );
  });

  it('a win gets at most three fresh attempts, and is dead-lettered exactly when all three failed', () => {
    fc.assert(
      fc.property(scenarios, (scenario) => {
        const { state, log } = drive(win, scenario);
        const fresh = log.filter((event) => event.type === 'WalletAttempted' && !event.data.recovery).length;
        expect(fresh).toBeLessThanOrEqual(3);
        const failures = log.filter((event) => event.type === 'WalletFailed').length;
        expect(state.status === 'dead_lettered').toBe(failures === 3);
        expect(log.filter((event) => event.type === 'CancelRequested')).toHaveLength(0);
      }),
    );
  });
});
