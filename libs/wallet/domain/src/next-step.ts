/**
 * What the record says to do next, and what it says to tell others: the attempt to make (or
 * none: the outcome is recorded), the reply for the requester, the cancel still to deliver, the
 * dead letter to publish.
 */
import type { WalletCancelDelivery, WalletDeadLetter, WalletReply } from '@reelstream/contracts';
import { deliveryPolicyFor, delayBeforeAttempt } from './policy.js';
import { attemptsInDelivery, isSettled, type WalletTxState } from './state.js';

export interface AttemptPlan {
  /** Wait this long first (the pause between a win's attempts). */
  readonly delayMs: number;
  readonly timeoutMs: number;
  /** The last attempt's outcome is unknown: it is sent again, same transactionId, same bytes. */
  readonly recovery: boolean;
}

/** The next attempt of the current delivery, or undefined when its outcome is recorded. */
export function nextAttempt(state: WalletTxState): AttemptPlan | undefined {
  if (!state.request || isSettled(state)) return undefined;
  const policy = deliveryPolicyFor(state.request.command);
  if (state.inFlight) return { delayMs: 0, timeoutMs: policy.timeoutMs, recovery: true };
  const attempt = attemptsInDelivery(state) + 1;
  if (attempt > policy.maxAttempts) return undefined;
  return { delayMs: delayBeforeAttempt(policy, attempt), timeoutMs: policy.timeoutMs, recovery: false };
}

const clip = (text: string) => (text.length > 1_000 ? `${text.slice(0, 999)}…` : text);

/** The requester's answer, from the record; undefined while the delivery is still going on. */
export function replyFromRecord(state: WalletTxState): WalletReply | undefined {
  const { request } = state;
  if (!request) return undefined;
  const transactionId = request.transactionId;
  switch (state.status) {
    case 'succeeded':
      return { transactionId, statusCode: 'OK', balanceMinor: state.balanceMinor ?? 0, canceled: false };
    case 'failed': {
      const failure = state.lastFailure ?? { statusCode: 'ERR_UNKNOWN', reason: 'failed' };
      const { cancel } = state;
      const reason = cancel
        ? `${failure.reason}; the round is canceled (cancel ${cancel.cancelTransactionId})`
        : failure.reason;
      return { transactionId, statusCode: failure.statusCode, canceled: cancel !== undefined, reason: clip(reason) };
    }
    case 'dead_lettered': {
      const failure = state.lastFailure ?? { statusCode: 'ERR_UNKNOWN', reason: 'failed' };
      const why = whyDeadLettered(state) ?? failure.reason;
      const kind = state.deadLetterReason ?? 'delivery_failed';
      const head =
        kind === 'delivery_failed' ? `dead-lettered after ${state.attempts} attempt(s)` : `dead-lettered (${kind})`;
      return { transactionId, statusCode: failure.statusCode, canceled: false, reason: clip(`${head}: ${why}`) };
    }
    case 'new':
    case 'pending':
      return undefined;
    default: {
      const unreachable: never = state.status;
      return unreachable;
    }
  }
}

/** The cancel still waiting for the operator's OK, as the message that has it delivered. */
export function pendingCancel(state: WalletTxState): WalletCancelDelivery | undefined {
  const { request, cancel } = state;
  if (!request || !cancel || cancel.succeeded) return undefined;
  return {
    refTransactionId: request.transactionId,
    cancelTransactionId: cancel.cancelTransactionId,
    operatorId: request.operatorId,
    playerId: request.playerId,
  };
}

/** A failed delivery is explained by its last failure; any other dead letter by what parked it. */
function whyDeadLettered(state: WalletTxState): string | undefined {
  return (state.deadLetterReason ?? 'delivery_failed') === 'delivery_failed'
    ? (state.lastFailure?.reason ?? state.deadLetterError)
    : state.deadLetterError;
}

/** The dead letter of a win that was not delivered (D11). */
export function deadLetterOf(state: WalletTxState): WalletDeadLetter | undefined {
  const { request } = state;
  if (!request || state.status !== 'dead_lettered' || state.deadLetteredAt === undefined) return undefined;
  return {
    transactionId: request.transactionId,
    operatorId: request.operatorId,
    playerId: request.playerId,
    request,
    reason: state.deadLetterReason ?? 'delivery_failed',
    attempts: state.attempts,
    lastError: clip(whyDeadLettered(state) ?? 'failed'),
    deadLetteredAt: state.deadLetteredAt,
  };
}

/** The dead letters of wins that name this stream's transactionId without being its request (never re-driven). */
export function conflictDeadLettersOf(state: WalletTxState): WalletDeadLetter[] {
  return state.conflicts.map((conflict) => ({
    transactionId: conflict.request.transactionId,
    operatorId: conflict.request.operatorId,
    playerId: conflict.request.playerId,
    request: conflict.request,
    reason: conflict.reason,
    attempts: 0,
    lastError: conflict.detail,
    deadLetteredAt: conflict.at,
  }));
}
