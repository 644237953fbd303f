/**
 * The handler of `wallet.cancels`: one attempt of a pending cancel (D9) per call. A cancel the
 * operator did not acknowledge throws, so the bus delivers the same message again after the
 * cancel back-off; the subscription never parks it (see `walletSubscriptions`). The message stays
 * uncommitted until the OK is recorded, so a pending cancel survives any restart.
 */
import { describeIssues, walletCancelDelivery } from '@reelstream/contracts';
import { isWrongExpectedRevision, type Message } from '@reelstream/ports';
import { answerFromCall, cancelCallbackFor, CancelPolicy, describeAnswer } from '@reelstream/wallet-domain';
import { eventContextOf, type DispatchContext } from './dispatch-context.js';
import { isDeterministicFailure } from './failures.js';
import { park } from './publish-outcome.js';

/** Another writer moved the stream while we worked (a rebalance overlap): reload and go on from the record. */
const MAX_CONFLICT_ROUNDS = 5;

export class CancelNotAcknowledgedError extends Error {
  override readonly name = 'CancelNotAcknowledgedError';
  constructor(
    readonly refTransactionId: number,
    readonly cancelTransactionId: number,
    readonly attempt: number,
    readonly outcome: string,
  ) {
    super(`cancel ${cancelTransactionId} of transaction ${refTransactionId}, attempt ${attempt}: ${outcome}; retried after back-off`);
  }
}

export class OperatorNotConfiguredError extends Error {
  override readonly name = 'OperatorNotConfiguredError';
  constructor(readonly operatorId: string) {
    super(`operator ${operatorId} is not configured on this dispatcher; its pending cancel waits until it is`);
  }
}

export async function handleCancelDelivery(context: DispatchContext, message: Message): Promise<void> {
  const parsed = walletCancelDelivery.safeParse(message.value);
  if (!parsed.success) {
    await park(context, message, `invalid cancel delivery: ${describeIssues(parsed.error.issues)}`);
    return;
  }
  const delivery = parsed.data;
  // A cancel is never dropped: a missing operator is a configuration fault to fix, retried meanwhile.
  const operator = context.deps.operators.get(delivery.operatorId);
  if (!operator) throw new OperatorNotConfiguredError(delivery.operatorId);
  const { records, deps } = context;
  const eventContext = eventContextOf(context, message, delivery.operatorId, delivery.refTransactionId);
  for (let round = 1; ; round++) {
    try {
      let record = await records.load(delivery.refTransactionId);
      const { request, cancel } = record.state;
      if (!request || !cancel) {
        await park(context, message, `transaction ${delivery.refTransactionId} has no cancel requested`);
        return;
      }
      if (cancel.succeeded) return;
      record = await records.execute(record, { type: 'StartCancelAttempt', data: {}, metadata: { now: context.now() } }, eventContext);
      const attempt = record.state.cancel?.attempts ?? 1;
      const result = await deps.wallet.call(operator, cancelCallbackFor(request, cancel), CancelPolicy.timeoutMs);
      const answer = answerFromCall(result, request.currency);
      record = await records.execute(record, { type: 'RecordCancelAnswer', data: { answer }, metadata: { now: context.now() } }, eventContext);
      const fields = { refTransactionId: delivery.refTransactionId, cancelTransactionId: cancel.cancelTransactionId, playerId: request.playerId, attempt };
      if (record.state.cancel?.succeeded) {
        deps.log.info('cancel acknowledged', fields);
        return;
      }
      deps.log.warn('cancel not acknowledged', { ...fields, outcome: describeAnswer(answer) });
      throw new CancelNotAcknowledgedError(delivery.refTransactionId, cancel.cancelTransactionId, attempt, describeAnswer(answer));
    } catch (error) {
      if (isDeterministicFailure(error)) {
        await park(context, message, `cancel of transaction ${delivery.refTransactionId} cannot be handled: ${error.message}`);
        return;
      }
      if (!isWrongExpectedRevision(error) || round >= MAX_CONFLICT_ROUNDS) throw error;
    }
  }
}
