import { defaultRetryDelayMs } from '@reelstream/platform-ports';

/** The port's default (`SubscribeOptions.maxAttempts`). */
export const DEFAULT_MAX_ATTEMPTS = 5;

export interface RetryPolicy {
  maxAttempts: number;
  retryDelayMs: (attempt: number) => number;
}

export function retryPolicy(options: {
  maxAttempts?: number;
  retryDelayMs?: (attempt: number) => number;
}): RetryPolicy {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1)
    throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  return { maxAttempts, retryDelayMs: options.retryDelayMs ?? defaultRetryDelayMs };
}

export type FailureDecision = { action: 'retry'; delayMs: number } | { action: 'park' };

/** After attempt `attempt` (1-based) failed: wait and try again, or park once `maxAttempts` are spent. */
export function decideAfterFailure(attempt: number, policy: RetryPolicy): FailureDecision {
  if (attempt >= policy.maxAttempts) return { action: 'park' };
  return { action: 'retry', delayMs: Math.max(0, policy.retryDelayMs(attempt)) };
}
