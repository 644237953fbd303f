import type { Message, MessageHandler } from '@reelstream/ports';
import { describeFailure } from './dead-letter.js';
import type { Decoded } from './message-mapping.js';
import { decideAfterFailure, type RetryPolicy } from './retry-policy.js';

/** The side effects of delivering one record, given by the consumer (kafkajs) or by a test. */
export interface DeliveryEffects {
  /** Puts the record on its dead-letter topic; resolves once the broker has it. */
  park(reason: string, attempts: number): Promise<void>;
  /** Waits before a retry; resolves early when the consumer stops. */
  sleep(ms: number): Promise<void>;
  /** Runs long work while keeping the consumer's group membership alive (kafkajs `heartbeat()`). */
  keepAlive<T>(work: () => Promise<T>): Promise<T>;
  isStopping(): boolean;
}

export type DeliveryOutcome =
  | { kind: 'handled'; attempts: number }
  | { kind: 'parked'; attempts: number; reason: string }
  /** The consumer stopped between retries: nothing to commit, the record comes again later. */
  | { kind: 'stopped'; attempts: number };

/**
 * Delivers one record: the handler runs until it succeeds, each failure followed by the policy's delay,
 * and after `maxAttempts` failures the record is parked. `priorAttempts` counts deliveries of the same
 * record earlier in this process (a redelivery after a failed commit keeps counting). Handled and
 * parked outcomes are for the caller to commit.
 */
export async function deliver(
  decoded: Decoded,
  handler: MessageHandler,
  policy: RetryPolicy,
  effects: DeliveryEffects,
  priorAttempts = 0,
): Promise<DeliveryOutcome> {
  if (!decoded.ok) {
    await effects.park(decoded.reason, 0);
    return { kind: 'parked', attempts: 0, reason: decoded.reason };
  }
  const message: Message = decoded.message;
  for (let attempt = priorAttempts + 1; ; attempt++) {
    try {
      await effects.keepAlive(() => handler(message, { attempt }));
      return { kind: 'handled', attempts: attempt };
    } catch (error) {
      const decision = decideAfterFailure(attempt, policy);
      if (decision.action === 'park') {
        const reason = describeFailure(error);
        await effects.keepAlive(() => effects.park(reason, attempt));
        return { kind: 'parked', attempts: attempt, reason };
      }
      if (effects.isStopping()) return { kind: 'stopped', attempts: attempt };
      await effects.keepAlive(() => effects.sleep(decision.delayMs));
      if (effects.isStopping()) return { kind: 'stopped', attempts: attempt };
    }
  }
}
