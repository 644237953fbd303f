/**
 * The handler of `wallet.cancels`: one attempt of a pending cancel (D9) per call. The message only
 * names the transaction (`refTransactionId`); its `walletTx` record says which cancel to send, to
 * which operator, and whether one is still owed. A cancel the operator did not acknowledge (or did
 * not get: its circuit is open, or it is not configured) is rescheduled durably on a delay topic,
 * not before the cancel back-off has passed, and this message is committed: the partition moves
 * on, and the cancel comes back when due, whatever restarts in between
 * (docs/adr/0002-cancel-delivery.md). No cancel is ever parked or dropped:
 * - a record this release cannot read or progress (written by a newer one: readers roll out
 *   first) keeps its cancel waiting on the longest delay topic until a release that can read it
 *   takes it, counted and alerted each round; so does a cancel whose handler failed ten times with
 *   an error nothing classified (a bug: failures.ts), until a release without it;
 * - a message that names no transaction, or one whose record owes no cancel, carries no cancel:
 *   the dispatcher publishes a cancel only for a record holding `CancelRequested`
 *   (`pendingCancel`), and records are never rewritten. Sending one would revert a bet that
 *   stands, so it is not sent; the message is counted, alerted and logged with its content.
 * Only an infrastructure failure (store or bus) throws for long, and is retried in place by the bus.
 */
import { describeIssues, walletCancelDelivery, type OperatorConfig } from '@reelstream/contracts';
import type { Message } from '@reelstream/platform-ports';
import {
  answerFromCall,
  cancelCallbackFor,
  CancelPolicy,
  cancelRetryDelayMs,
  describeAnswer,
} from '@reelstream/wallet-domain';
import { throwIfAbandoned } from './deliver.js';
import { eventContextOf, type CancelNotDeliveredReason, type DispatchContext } from './dispatch-context.js';
import { asError, givesUp, isDeterministicFailure } from './failures.js';
import { LONGEST_RETRY_TIER, reschedule, retryCountOf } from './reschedule.js';
import { retryDispatch } from './wallet-tx-repository.js';

/** What the handler reads of a message: the transaction it names (the rest is the record's to say). */
const cancelPointer = walletCancelDelivery.pick({ refTransactionId: true }).loose();

/**
 * `signal`: the bus handler's; it aborts the operator call, and an abandoned cancel is not rescheduled
 * (the bus redelivers it). `attempt`: the bus's count of this message's deliveries, 1 first.
 */
export async function handleCancelDelivery(
  context: DispatchContext,
  message: Message,
  signal?: AbortSignal,
  attempt = 1,
): Promise<void> {
  const named = cancelPointer.safeParse(message.value);
  if (!named.success) {
    carriesNoCancel(context, message, 'not_a_cancel', `names no transaction: ${describeIssues(named.error.issues)}`);
    return;
  }
  const { refTransactionId } = named.data;
  const wellFormed = walletCancelDelivery.safeParse(message.value);
  if (!wellFormed.success)
    context.deps.log.warn('cancel message malformed; the cancel is taken from its transaction record', {
      refTransactionId,
      issues: describeIssues(wellFormed.error.issues),
    });
  try {
    await retryDispatch(refTransactionId, () => attemptCancel(context, message, refTransactionId, signal));
  } catch (error) {
    if (!givesUp(error, attempt)) throw error;
    const unreadable = isDeterministicFailure(error);
    const reason = unreadable
      ? `the record of transaction ${refTransactionId} cannot be read or progressed by this release: ${error.message}`
      : `the cancel of transaction ${refTransactionId} failed ${attempt} times: ${asError(error).message}`;
    await keepCancelWaiting(context, message, unreadable ? 'record_unreadable' : 'handler_failed', reason, error);
  }
}

/**
 * A cancel is never given up: one its handler (or the delay consumer holding it) cannot mend waits
 * on the longest delay topic, counted and alerted each round, and its partition moves on.
 */
export async function keepCancelWaiting(
  context: DispatchContext,
  message: Message,
  why: 'record_unreadable' | 'handler_failed',
  reason: string,
  error: unknown,
): Promise<void> {
  context.deps.log.error(
    why === 'record_unreadable'
      ? 'cancel waiting: its record cannot be read by this release; rescheduled'
      : 'cancel waiting: its handler keeps failing; rescheduled',
    {
      refTransactionId: (message.value as { refTransactionId?: unknown } | null)?.refTransactionId,
      retryCount: retryCountOf(message),
      error,
    },
  );
  context.deps.onCancelNotDelivered?.({ operatorId: operatorIdOf(message), reason: why });
  await reschedule(context, message, LONGEST_RETRY_TIER.delayMs, reason);
}

/** One attempt of the cancel its record holds, on the record as loaded now. */
async function attemptCancel(
  context: DispatchContext,
  message: Message,
  refTransactionId: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { records, deps } = context;
  let record = await records.load(refTransactionId);
  const { request, cancel } = record.state;
  if (!request || !cancel) {
    const why = request
      ? `transaction ${refTransactionId} (${request.command}, ${record.state.status}) has no cancel requested`
      : `transaction ${refTransactionId} is not recorded`;
    carriesNoCancel(context, message, 'no_cancel_requested', why);
    return;
  }
  if (cancel.succeeded) return;
  const operator = await operatorToCall(context, message, request.operatorId, refTransactionId);
  if (!operator) return;
  const eventContext = eventContextOf(context, message, request.operatorId, refTransactionId);
  throwIfAbandoned(signal, refTransactionId);
  record = await records.execute(
    record,
    { type: 'StartCancelAttempt', data: {}, metadata: { now: context.now() } },
    eventContext,
  );
  const attempt = record.state.cancel?.attempts ?? 1;
  const result = await deps.wallet.call(
    operator,
    cancelCallbackFor(request, cancel),
    CancelPolicy.timeoutMs,
    undefined,
    signal,
  );
  const answer = answerFromCall(result, request.currency);
  record = await records.execute(
    record,
    { type: 'RecordCancelAnswer', data: { answer }, metadata: { now: context.now() } },
    eventContext,
  );
  const fields = {
    refTransactionId,
    cancelTransactionId: cancel.cancelTransactionId,
    playerId: request.playerId,
    attempt,
  };
  if (record.state.cancel?.succeeded) {
    deps.log.info('cancel acknowledged', fields);
    return;
  }
  throwIfAbandoned(signal, refTransactionId);
  const delayMs =
    result.kind === 'no_reply' && result.retryAfterMs !== undefined
      ? Math.max(result.retryAfterMs, cancelRetryDelayMs(attempt))
      : cancelRetryDelayMs(attempt);
  deps.log.warn('cancel not acknowledged; rescheduled', { ...fields, outcome: describeAnswer(answer), delayMs });
  await reschedule(context, message, delayMs, describeAnswer(answer));
}

/** The operator to send the cancel to now; none (the cancel rescheduled) when it is not configured or its circuit is open. */
async function operatorToCall(
  context: DispatchContext,
  message: Message,
  operatorId: string,
  refTransactionId: number,
): Promise<OperatorConfig | undefined> {
  const { deps } = context;
  // A cancel is never dropped: a missing operator is a configuration fault to fix; the cancel waits durably meanwhile.
  const operator: OperatorConfig | undefined = deps.operators.get(operatorId);
  if (!operator) {
    deps.log.warn('cancel of an operator that is not configured; rescheduled', {
      refTransactionId,
      operatorId,
      retryCount: retryCountOf(message),
    });
    await reschedule(
      context,
      message,
      LONGEST_RETRY_TIER.delayMs,
      `operator ${operatorId} is not configured on this dispatcher`,
    );
    return undefined;
  }
  // An open circuit: wait for it durably, without recording an attempt that would not be sent.
  const refusingForMs = deps.wallet.refusingForMs?.(operator.id);
  if (refusingForMs !== undefined) {
    await reschedule(context, message, refusingForMs, `operator ${operator.id}'s circuit is open`);
    return undefined;
  }
  return operator;
}

/** A message that carries no cancel owed: nothing is sent; it is logged whole, counted and alerted, then committed. */
function carriesNoCancel(
  context: DispatchContext,
  message: Message,
  reason: Exclude<CancelNotDeliveredReason, 'record_unreadable'>,
  detail: string,
): void {
  context.deps.log.error('cancel message carries no cancel owed; nothing sent', {
    reason,
    detail,
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    key: message.key,
    value: message.value,
  });
  context.deps.onCancelNotDelivered?.({ operatorId: operatorIdOf(message), reason });
}

/** The operator a message names, for the count; `unknown` when it names none. */
function operatorIdOf(message: Message): string {
  const value = message.value as { operatorId?: unknown } | null;
  return typeof value?.operatorId === 'string' ? value.operatorId.slice(0, 64) : 'unknown';
}
