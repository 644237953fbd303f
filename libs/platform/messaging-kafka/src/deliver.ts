import type { Message } from '@reelstream/platform-ports';
import { describeFailure } from './dead-letter.js';
import type { Decoded } from './message-mapping.js';
import { decideAfterFailure, type RetryPolicy } from './retry-policy.js';

/** The side effects of delivering one record, given by the consumer (kafkajs) or by a test. */
export interface DeliveryEffects {
  /** Puts the record on its dead-letter topic; resolves once the broker has it. */
  park(reason: string, attempts: number): Promise<void>;
  /** Waits before a retry; resolves early when the consumer stops. */
  sleep(ms: number): Promise<void>;
  isStopping(): boolean;
  /**
   * Runs before each attempt, with its number; resolves once that number is durable where the
   * consumer keeps it (so a process killed inside the handler still counts the attempt).
   */
  beforeAttempt?(attempt: number): Promise<void>;
  /**
   * True once the consumer has abandoned the running attempt (its partition was revoked in a
   * rebalance): a failure then is the abort's, not the handler's, so it is not counted as an attempt
   * and never parks the record; the record comes again to whoever owns the partition next.
   */
  abandoned?(): boolean;
  /**
   * Offered before each retry delay: true when the consumer takes the retry over (it stops fetching the
   * record's partition for `delayMs` and delivers the record again after), so this call ends instead of
   * waiting in place while every other partition fetched with it waits too.
   */
  defer?(delayMs: number): boolean;
}

/** A handler as `deliver` calls it: the attempt number only (the consumer adds the abort signal). */
export type AttemptHandler = (message: Message, context: { attempt: number }) => Promise<void>;

export type DeliveryOutcome =
  | { kind: 'handled'; attempts: number }
  | { kind: 'parked'; attempts: number; reason: string }
  /** The consumer stopped between retries: nothing to commit, the record comes again later. */
  | { kind: 'stopped'; attempts: number }
  /** The consumer took the retry over (`defer`): nothing to commit, the record comes again after `delayMs`. */
  | { kind: 'deferred'; attempts: number; delayMs: number };

/**
 * Delivers one record: the handler runs until it succeeds, each failure followed by the policy's delay,
 * and after `maxAttempts` failures the record is parked. `priorAttempts` counts deliveries of the same
 * record before this one (earlier in this process after a failed commit, or durably counted by an
 * owner that died inside the handler): when they already reach `maxAttempts` the record is parked
 * without running the handler again. An attempt the consumer abandoned (a revoked partition) that
 * then fails is not counted: `stopped`, with the attempts before it. Handled and parked outcomes are
 * for the caller to commit.
 */
export async function deliver(
  decoded: Decoded,
  handler: AttemptHandler,
  policy: RetryPolicy,
  effects: DeliveryEffects,
  priorAttempts = 0,
): Promise<DeliveryOutcome> {
  if (!decoded.ok) {
    await effects.park(decoded.reason, 0);
    return { kind: 'parked', attempts: 0, reason: decoded.reason };
  }
  const message: Message = decoded.message;
  if (priorAttempts >= policy.maxAttempts) {
    const reason = `the consumer stopped ${priorAttempts} times inside the handler (a process killed while handling it?)`;
    await effects.park(reason, priorAttempts);
    return { kind: 'parked', attempts: priorAttempts, reason };
  }
  for (let attempt = priorAttempts + 1; ; attempt++) {
    // Outside the try: a mark that cannot be written is the consumer's failure, not the handler's.
    await effects.beforeAttempt?.(attempt);
    try {
      await handler(message, { attempt });
      return { kind: 'handled', attempts: attempt };
    } catch (error) {
      if (effects.abandoned?.()) return { kind: 'stopped', attempts: attempt - 1 };
      const decision = decideAfterFailure(attempt, policy);
      if (decision.action === 'park') {
        const reason = describeFailure(error);
        await effects.park(reason, attempt);
        return { kind: 'parked', attempts: attempt, reason };
      }
      if (effects.isStopping()) return { kind: 'stopped', attempts: attempt };
      if (effects.defer?.(decision.delayMs)) return { kind: 'deferred', attempts: attempt, delayMs: decision.delayMs };
      await effects.sleep(decision.delayMs);
      if (effects.isStopping()) return { kind: 'stopped', attempts: attempt };
    }
  }
}
