import { describe, expect, it } from '@jest/globals';
import { defaultRetryDelayMs } from '@reelstream/platform-ports';
import { DEFAULT_MAX_ATTEMPTS, decideAfterFailure, retryPolicy } from '../src/retry-policy.js';

describe('retry or park', () => {
  it('defaults to the port: 5 attempts, delays doubling from 100 ms', () => {
    const policy = retryPolicy({});
    expect(policy.maxAttempts).toBe(DEFAULT_MAX_ATTEMPTS);
    expect(policy.maxAttempts).toBe(5);
    expect(policy.retryDelayMs).toBe(defaultRetryDelayMs);
  });

  it('retries after each failed attempt before the last, with the delay for that retry', () => {
    const policy = retryPolicy({ maxAttempts: 3, retryDelayMs: (n) => n * 1_000 });
    expect(decideAfterFailure(1, policy)).toEqual({ action: 'retry', delayMs: 1_000 });
    expect(decideAfterFailure(2, policy)).toEqual({ action: 'retry', delayMs: 2_000 });
    expect(decideAfterFailure(3, policy)).toEqual({ action: 'park' });
    expect(decideAfterFailure(7, policy)).toEqual({ action: 'park' });
  });

  it('parks at once when only one attempt is allowed, and never waits a negative time', () => {
    expect(decideAfterFailure(1, retryPolicy({ maxAttempts: 1 }))).toEqual({ action: 'park' });
    expect(decideAfterFailure(1, retryPolicy({ maxAttempts: 2, retryDelayMs: () => -5 }))).toEqual({
      action: 'retry',
      delayMs: 0,
    });
  });

  it('refuses a maxAttempts that would never park or never run', () => {
    for (const bad of [0, -1, 1.5, Number.POSITIVE_INFINITY])
      expect(() => retryPolicy({ maxAttempts: bad })).toThrow(RangeError);
  });
});
