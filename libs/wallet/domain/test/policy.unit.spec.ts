import { describe, expect, it } from '@jest/globals';
import {
  answerFromCall,
  cancelRetryDelayMs,
  delayBeforeAttempt,
  DeliveryPolicies,
  describeAnswer,
  failureStatusCode,
} from '../src/index.js';

describe('delivery policy (spec §8)', () => {
  it('bet and betwin: one attempt within 3 s, then a cancel; win: three within 4 s each, then a dead letter', () => {
    expect(DeliveryPolicies.bet).toMatchObject({ timeoutMs: 3_000, maxAttempts: 1, onFinalFailure: 'cancel' });
    expect(DeliveryPolicies.betwin).toMatchObject({ timeoutMs: 3_000, maxAttempts: 1, onFinalFailure: 'cancel' });
    expect(DeliveryPolicies.win).toMatchObject({ timeoutMs: 4_000, maxAttempts: 3, onFinalFailure: 'dead_letter' });
    expect([1, 2, 3].map((attempt) => delayBeforeAttempt(DeliveryPolicies.win, attempt))).toEqual([0, 200, 400]);
  });

  it('waits the last of a policy’s delays before every attempt beyond them', () => {
    const policy = { ...DeliveryPolicies.win, maxAttempts: 6, retryDelaysMs: [100, 200, 300] };
    expect([2, 3, 4, 5, 6].map((attempt) => delayBeforeAttempt(policy, attempt))).toEqual([100, 200, 300, 300, 300]);
    expect(delayBeforeAttempt(DeliveryPolicies.bet, 2)).toBe(0);
  });

  it('a cancel is retried after 250 ms, doubling, never more than 30 s apart', () => {
    expect([1, 2, 3, 4, 8, 9, 50].map(cancelRetryDelayMs)).toEqual([250, 500, 1_000, 2_000, 30_000, 30_000, 30_000]);
  });
});

describe('answers: the operator’s reply in minor units, or why there was none', () => {
  it('converts the balance with the currency’s decimals', () => {
    expect(answerFromCall({ kind: 'reply', statusCode: 'OK', balance: 98.5 }, 'EUR')).toEqual({
      kind: 'reply',
      statusCode: 'OK',
      balanceMinor: 9_850,
    });
  });

  it('takes a float balance (99.89999999999999) as a balance, rounded half to even, and keeps it as sent', () => {
    expect(answerFromCall({ kind: 'reply', statusCode: 'OK', balance: 99.89999999999999 }, 'EUR')).toEqual({
      kind: 'reply',
      statusCode: 'OK',
      balanceMinor: 9_990,
      balanceSent: 99.89999999999999,
    });
    expect(answerFromCall({ kind: 'reply', statusCode: 'ERR_NOT_ENOUGH_MONEY', balance: 0.125 }, 'EUR')).toEqual({
      kind: 'reply',
      statusCode: 'ERR_NOT_ENOUGH_MONEY',
      balanceMinor: 12,
      balanceSent: 0.125,
    });
    expect(answerFromCall({ kind: 'reply', statusCode: 'OK', balance: 1_000.5 }, 'KRW')).toMatchObject({
      balanceMinor: 1_000,
    });
  });

  it('a balance that is not a finite number is no reply: ERR_UNKNOWN', () => {
    for (const balance of [Number.NaN, Number.POSITIVE_INFINITY, '99.9' as unknown as number]) {
      const bad = answerFromCall({ kind: 'reply', statusCode: 'OK', balance }, 'EUR');
      expect(bad).toMatchObject({ kind: 'no_reply', cause: 'malformed' });
      expect(failureStatusCode(bad)).toBe('ERR_UNKNOWN');
    }
  });

  it('says which balance was not a number', () => {
    expect(answerFromCall({ kind: 'reply', statusCode: 'OK', balance: Number.NaN }, 'EUR')).toEqual({
      kind: 'no_reply',
      cause: 'malformed',
      reason: 'balance NaN: amount must be a finite number, got NaN',
    });
  });

  it('describes a failure for the record', () => {
    expect(describeAnswer({ kind: 'reply', statusCode: 'ERR_NOT_ENOUGH_MONEY', balanceMinor: 0 })).toBe(
      'ERR_NOT_ENOUGH_MONEY',
    );
    expect(describeAnswer({ kind: 'no_reply', cause: 'network', reason: 'ECONNREFUSED' })).toBe(
      'network: ECONNREFUSED',
    );
    expect(describeAnswer({ kind: 'no_reply', cause: 'http_status', reason: 'x'.repeat(2_000) })).toBe(
      `http_status: ${'x'.repeat(986)}…`,
    );
    // 'http_status: ' and 987 characters: 1,000, kept whole.
    expect(describeAnswer({ kind: 'no_reply', cause: 'http_status', reason: 'x'.repeat(987) })).toBe(
      `http_status: ${'x'.repeat(987)}`,
    );
  });
});
