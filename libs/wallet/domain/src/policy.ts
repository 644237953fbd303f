/**
 * How each callback is delivered (spec §6, §8; docs/architecture.md flow 5, D9, D11): how long the operator
 * has to answer, how many attempts a delivery gets, and what follows the last failed one.
 */
import { STAKE_WINDOW_MS, type WalletCommand } from '@reelstream/contracts';

/** What follows the last failed attempt: bet and betwin cancel the round (D9), a win is parked (D11). */
type FinalFailureAction = 'cancel' | 'dead_letter';

export interface DeliveryPolicy {
  readonly command: WalletCommand;
  /** The operator must answer within this; a later answer counts as a time-out. */
  readonly timeoutMs: number;
  /** Attempts in one delivery (a re-drive starts a new delivery with as many again). */
  readonly maxAttempts: number;
  /** Wait before attempt n + 1 after attempt n failed: `retryDelaysMs[n − 1]`. */
  readonly retryDelaysMs: readonly number[];
  readonly onFinalFailure: FinalFailureAction;
}

export const DeliveryPolicies = {
  /** One attempt, 3 s; anything but OK cancels the round (spec §6.1). */
  bet: { command: 'bet', timeoutMs: STAKE_WINDOW_MS, maxAttempts: 1, retryDelaysMs: [], onFinalFailure: 'cancel' },
  /** As bet (spec §6.3). */
  betwin: {
    command: 'betwin',
    timeoutMs: STAKE_WINDOW_MS,
    maxAttempts: 1,
    retryDelaysMs: [],
    onFinalFailure: 'cancel',
  },
  /** 4 s, then up to 2 more attempts a moment apart (spec §6.2), then the dead letters (D11). */
  win: { command: 'win', timeoutMs: 4_000, maxAttempts: 3, retryDelaysMs: [200, 400], onFinalFailure: 'dead_letter' },
} as const satisfies Record<WalletCommand, DeliveryPolicy>;

export function deliveryPolicyFor(command: WalletCommand): DeliveryPolicy {
  return DeliveryPolicies[command];
}

/** The wait before attempt `attemptInDelivery` (1-based) of a delivery: 0 for the first. */
export function delayBeforeAttempt(policy: DeliveryPolicy, attemptInDelivery: number): number {
  if (attemptInDelivery <= 1) return 0;
  return policy.retryDelaysMs[attemptInDelivery - 2] ?? policy.retryDelaysMs.at(-1) ?? 0;
}

/**
 * The cancel (D9): the spec gives it no time limit, so it gets the limit of what it reverts, and
 * it is retried with doubling back-off, capped, until the operator answers OK — the operator
 * answers OK for an unknown or already canceled transaction, so every other answer is a fault
 * worth retrying, and giving up would leave the player's money with the operator.
 */
export const CancelPolicy = {
  timeoutMs: 3_000,
  firstRetryDelayMs: 250,
  maxRetryDelayMs: 30_000,
} as const;

/** Wait after the `failedAttempts`-th failed cancel attempt: 250 ms, 500 ms, 1 s, … at most 30 s. */
export function cancelRetryDelayMs(failedAttempts: number): number {
  const exponent = Math.max(0, Math.min(failedAttempts - 1, 20));
  return Math.min(CancelPolicy.maxRetryDelayMs, CancelPolicy.firstRetryDelayMs * 2 ** exponent);
}
