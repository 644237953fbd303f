/**
 * The handler of `wallet.cancels`: one attempt of a pending cancel (D9) per call. A cancel the
 * operator did not acknowledge (or did not get: its circuit is open, or it is not configured) is
 * rescheduled durably on a delay topic, not before the cancel back-off has passed, and this
 * message is committed: the partition moves on, and the cancel comes back when due, whatever
 * restarts in between (docs/adr/0002-cancel-delivery.md). It is never dropped or parked. Only an
 * infrastructure failure (store or bus) throws, and is retried in place by the bus.
 */
import {
  describeIssues,
  walletCancelDelivery,
  type EventContext,
  type OperatorConfig,
  type WalletCancelDelivery,
} from '@reelstream/contracts';
import type { Message } from '@reelstream/ports';
import {
  answerFromCall,
  cancelCallbackFor,
  CancelPolicy,
  cancelRetryDelayMs,
  describeAnswer,
} from '@reelstream/wallet-domain';
import { eventContextOf, type DispatchContext } from './dispatch-context.js';
import { isDeterministicFailure } from './failures.js';
import { park } from './publish-outcome.js';
import { LONGEST_RETRY_TIER, reschedule, retryCountOf } from './reschedule.js';
import { retryDispatch } from './wallet-tx-repository.js';

export async function handleCancelDelivery(context: DispatchContext, message: Message): Promise<void> {
  const parsed = walletCancelDelivery.safeParse(message.value);
  if (!parsed.success) {
    await park(context, message, `invalid cancel delivery: ${describeIssues(parsed.error.issues)}`);
    return;
  }
  const delivery = parsed.data;
  const { deps } = context;
  // A cancel is never dropped: a missing operator is a configuration fault to fix; the cancel waits durably meanwhile.
  const operator = deps.operators.get(delivery.operatorId);
  if (!operator) {
    deps.log.warn('cancel of an operator that is not configured; rescheduled', {
      refTransactionId: delivery.refTransactionId,
      operatorId: delivery.operatorId,
      retryCount: retryCountOf(message),
    });
    await reschedule(
      context,
      message,
      LONGEST_RETRY_TIER.delayMs,
      `operator ${delivery.operatorId} is not configured on this dispatcher`,
    );
    return;
  }
  // An open circuit: wait for it durably, without recording an attempt that would not be sent.
  const refusingForMs = deps.wallet.refusingForMs?.(operator.id);
  if (refusingForMs !== undefined) {
    await reschedule(context, message, refusingForMs, `operator ${operator.id}'s circuit is open`);
    return;
  }
  const eventContext = eventContextOf(context, message, delivery.operatorId, delivery.refTransactionId);
  try {
    await retryDispatch(delivery.refTransactionId, () =>
      attemptCancel(context, message, delivery, operator, eventContext),
    );
  } catch (error) {
    if (!isDeterministicFailure(error)) throw error;
    await park(
      context,
      message,
      `cancel of transaction ${delivery.refTransactionId} cannot be handled: ${error.message}`,
    );
  }
}

/** One attempt of the cancel, on the record as loaded now. */
async function attemptCancel(
  context: DispatchContext,
  message: Message,
  delivery: WalletCancelDelivery,
  operator: OperatorConfig,
  eventContext: EventContext,
): Promise<void> {
  const { records, deps } = context;
  let record = await records.load(delivery.refTransactionId);
  const { request, cancel } = record.state;
  if (!request || !cancel) {
    await park(context, message, `transaction ${delivery.refTransactionId} has no cancel requested`);
    return;
  }
  if (cancel.succeeded) return;
  record = await records.execute(
    record,
    { type: 'StartCancelAttempt', data: {}, metadata: { now: context.now() } },
    eventContext,
  );
  const attempt = record.state.cancel?.attempts ?? 1;
  const result = await deps.wallet.call(operator, cancelCallbackFor(request, cancel), CancelPolicy.timeoutMs);
  const answer = answerFromCall(result, request.currency);
  record = await records.execute(
    record,
    { type: 'RecordCancelAnswer', data: { answer }, metadata: { now: context.now() } },
    eventContext,
  );
  const fields = {
    refTransactionId: delivery.refTransactionId,
    cancelTransactionId: cancel.cancelTransactionId,
    playerId: request.playerId,
    attempt,
  };
  if (record.state.cancel?.succeeded) {
    deps.log.info('cancel acknowledged', fields);
    return;
  }
  const delayMs =
    result.kind === 'no_reply' && result.retryAfterMs !== undefined
      ? Math.max(result.retryAfterMs, cancelRetryDelayMs(attempt))
      : cancelRetryDelayMs(attempt);
  deps.log.warn('cancel not acknowledged; rescheduled', { ...fields, outcome: describeAnswer(answer), delayMs });
  await reschedule(context, message, delayMs, describeAnswer(answer));
}
