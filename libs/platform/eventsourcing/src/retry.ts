/**
 * The one retry policy for optimistic-concurrency conflicts: try again at once a few times, then
 * with a small random pause, and give up after `maxAttempts` with `ConcurrencyExhaustedError`.
 */
import { ReelstreamError } from '@reelstream/contracts';
import { isWrongExpectedRevision } from '@reelstream/platform-ports';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** Attempts after which a retry first waits a random pause (many writers on one stream: spread them out). */
  readonly immediateAttempts: number;
  /** The longest pause, in ms. */
  readonly maxPauseMs: number;
}

/** 50 concurrent registrations for one player settle well inside 100 attempts (commands.int.spec.ts). */
const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 100, immediateAttempts: 3, maxPauseMs: 20 };

/** Retriable: the stream was busy, not wrong; an enclosing retry (or the caller, later) may get through. */
export class ConcurrencyExhaustedError extends ReelstreamError {
  override readonly name = 'ConcurrencyExhaustedError';
  constructor(
    readonly streamId: string,
    readonly attempts: number,
    options: { cause?: unknown } = {},
  ) {
    super('SERVICE_UNAVAILABLE', `stream ${streamId} kept changing: gave up after ${attempts} attempts`, {
      retriable: true,
      cause: options.cause,
    });
  }
}

/**
 * A conflict: the store refused an append at a stale revision, or a command handler gave up on
 * one (with `maxAttempts: 1` a handler leaves every conflict to an enclosing `retryOnConflict`).
 */
function isConflict(error: unknown): boolean {
  return isWrongExpectedRevision(error) || error instanceof ConcurrencyExhaustedError;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it returns without a conflict. `attempt` must start from a fresh read each
 * time: the stream moved, so whatever it decided before is stale.
 */
export async function retryOnConflict<T>(
  streamId: string,
  attempt: (attemptNumber: number) => Promise<T>,
  policy: Partial<RetryPolicy> = {},
): Promise<T> {
  const { maxAttempts, immediateAttempts, maxPauseMs } = { ...DEFAULT_RETRY_POLICY, ...policy };
  let lastConflict: unknown;
  for (let number = 1; number <= maxAttempts; number++) {
    if (number > immediateAttempts + 1) await pause(Math.random() * Math.min(maxPauseMs, number - 1));
    try {
      return await attempt(number);
    } catch (error) {
      if (!isConflict(error)) throw error;
      lastConflict = error;
    }
  }
  throw new ConcurrencyExhaustedError(streamId, maxAttempts, { cause: lastConflict });
}
