/**
 * The delivery loop of one transaction: attempt, record the answer, attempt again while the
 * policy allows, until the record holds the outcome. Each attempt is recorded before the call
 * and its answer after it, so a crash in between leaves an attempt without outcome, which the
 * next delivery sends again with the same transactionId and the same bytes.
 */
import { ReelstreamError, type EventContext, type OperatorConfig, type WalletRequest } from '@reelstream/contracts';
import {
  answerFromCall,
  callbackFor,
  describeAnswer,
  isOk,
  needsCancelTransactionId,
  nextAttempt,
  deliveryPolicyFor,
  deadlineOf,
  pastSendWindow,
  sendWithinMs,
  windowLeftMs,
  type OperatorCallResult,
} from '@reelstream/wallet-domain';
import type { DispatchContext } from './dispatch-context.js';
import type { WalletTxRecord } from './wallet-tx-repository.js';

/** A win could not be sent now (the operator's bulkhead refused it): its message is rescheduled (see `walletSubscriptions`). */
export class OperatorUnavailableError extends ReelstreamError {
  override readonly name = 'OperatorUnavailableError';
  constructor(
    readonly operatorId: string,
    readonly transactionId: number,
    readonly reason: string,
    readonly retryAfterMs: number,
  ) {
    super('WALLET_UNAVAILABLE', `win ${transactionId}: ${reason}`, { retriable: true });
  }
}

/**
 * The bus abandoned the handler (its deadline passed or its partition was revoked) while it was
 * calling the operator: the call was aborted and its answer recorded as a time-out (outcome unknown).
 * Nothing more is attempted here; the redelivery goes on from the record, with the same transactionId.
 */
class AttemptAbandonedError extends ReelstreamError {
  override readonly name = 'AttemptAbandonedError';
  constructor(readonly transactionId: number) {
    super(
      'SERVICE_UNAVAILABLE',
      `transaction ${transactionId}: the handler was abandoned (deadline or revoked partition); its redelivery goes on from the record`,
      { retriable: true },
    );
  }
}

/** Throws once the bus has abandoned the handler: no attempt starts after that. */
export function throwIfAbandoned(signal: AbortSignal | undefined, transactionId: number): void {
  if (signal?.aborted) throw new AttemptAbandonedError(transactionId);
}

/**
 * The call of one attempt, within the request's deadline: a bet or betwin whose window is (nearly)
 * over is not sent and counts as a time-out (its round is canceled, D9); one that is sent gets what
 * is left of its window, never more than its policy's limit, so its answer is never taken late, and
 * waits for a slot of its operator's bulkhead only while it may still start in time.
 */
async function callWithinDeadline(
  context: DispatchContext,
  operator: OperatorConfig,
  request: WalletRequest,
  signal: AbortSignal | undefined,
): Promise<OperatorCallResult> {
  const now = context.now();
  const limitMs = deliveryPolicyFor(request.command).timeoutMs;
  if (pastSendWindow(request, now))
    return {
      kind: 'no_reply',
      cause: 'timeout',
      reason: `not sent: its deadline ${deadlineOf(request)} had passed when the call was due at ${now}`,
    };
  const leftMs = windowLeftMs(request, now) ?? limitMs;
  return context.deps.wallet.call(
    operator,
    callbackFor(request),
    Math.min(limitMs, leftMs),
    sendWithinMs(request, now),
    signal,
  );
}

export interface DeliverOptions {
  /** Start a new delivery of a dead-lettered win (D11). */
  redrive: boolean;
  /** That re-drive is the dispatcher's schedule's (recorded on its first attempt). */
  scheduled?: boolean;
  /** The first attempt is already recorded (with the request, in one append): call at once. */
  attemptRecorded?: boolean;
  /** The bus handler's signal: aborts the operator call; once aborted, nothing more is attempted. */
  signal?: AbortSignal;
}

// Long because: one attempt loop; each attempt is recorded before its call and each answer before the next
// attempt is planned. That order is the money-safety argument and reads best in one place.
export async function deliver(
  context: DispatchContext,
  start: WalletTxRecord,
  operator: OperatorConfig,
  eventContext: EventContext,
  options: DeliverOptions,
): Promise<WalletTxRecord> {
  const { records, deps } = context;
  let record = start;
  let redrive = options.redrive && record.state.status === 'dead_lettered';
  let attemptRecorded = options.attemptRecorded === true && record.state.inFlight;
  const at = () => ({ now: context.now() });
  for (;;) {
    throwIfAbandoned(options.signal, record.transactionId);
    if (attemptRecorded) {
      attemptRecorded = false;
    } else if (redrive) {
      const data = options.scheduled === true ? { scheduled: true } : {};
      record = await records.execute(record, { type: 'StartRedrive', data, metadata: at() }, eventContext);
      redrive = false;
    } else {
      const plan = nextAttempt(record.state);
      if (!plan) return record;
      if (plan.delayMs > 0) await context.sleep(plan.delayMs);
      throwIfAbandoned(options.signal, record.transactionId);
      record = await records.execute(record, { type: 'StartAttempt', data: {}, metadata: at() }, eventContext);
      if (plan.recovery)
        deps.log.info('re-sending an attempt whose outcome is unknown', {
          transactionId: record.transactionId,
          attempt: record.state.attempts,
        });
    }
    const request = record.state.request;
    if (!request) throw new Error(`walletTx-${record.transactionId} has an attempt but no request`);
    const started = performance.now();
    const result = await callWithinDeadline(context, operator, request, options.signal);
    // A win the bulkhead did not send keeps its attempt in flight (sent again, same bytes, when due): it is rescheduled, not failed.
    if (result.kind === 'no_reply' && result.cause === 'unavailable' && request.command === 'win')
      throw new OperatorUnavailableError(
        operator.id,
        request.transactionId,
        result.reason,
        result.retryAfterMs ?? 1_000,
      );
    const answer = answerFromCall(result, request.currency);
    const cancelTransactionId = needsCancelTransactionId(record.state, answer) ? deps.ids.next() : undefined;
    record = await records.execute(
      record,
      {
        type: 'RecordAnswer',
        data: { answer, ...(cancelTransactionId === undefined ? {} : { cancelTransactionId }) },
        metadata: at(),
      },
      eventContext,
    );
    const fields = {
      transactionId: request.transactionId,
      command: request.command,
      playerId: request.playerId,
      attempt: record.state.attempts,
      ms: Math.round(performance.now() - started),
    };
    if (isOk(answer)) deps.log.debug('callback answered OK', fields);
    else if (record.state.status === 'dead_lettered')
      // The attempts are used up: the money is owed to the player until someone re-drives it.
      deps.log.error(
        'callback given up: dead-lettered, money owed to the player; `npm run wallet:redrive` re-drives it',
        {
          ...fields,
          operatorId: operator.id,
          outcome: describeAnswer(answer),
          status: record.state.status,
        },
      );
    else
      deps.log.info('callback failed', {
        ...fields,
        outcome: describeAnswer(answer),
        status: record.state.status,
        cancelTransactionId,
      });
  }
}
