/**
 * What happens to a win before it may be sent. A win that does not match the event it
 * must come from is refused: recorded as `WinRefused`, logged at error, answered non-OK, never
 * sent. A genuine win that cannot be delivered now — its operator is not configured, its
 * transactionId names another request, the record refuses the step — is not set aside on a topic
 * nobody reads: it becomes a `WinDeadLettered` event with the reason, published on
 * `wallet.dead-letters` and listed and re-driven by `npm run wallet:redrive`.
 */
import {
  parseStoredEvent,
  playerKey,
  ReelstreamError,
  Topics,
  Headers,
  walletTxStream,
  type EventContext,
  type OperatorConfig,
  type WalletDeadLetter,
  type WalletWinRequest,
  type WinDeadLetterReason,
} from '@reelstream/contracts';
import type { Message } from '@reelstream/platform-ports';
import { handleCommand } from '@reelstream/platform-eventsourcing';
import {
  conflictDeadLettersOf,
  isSettled,
  sameRequest,
  unreadableRecordDecider,
  winAdmission,
  type WinRefusalReason,
  type DeadLetteredWins,
  type WinDeadLettered,
} from '@reelstream/wallet-domain';
import { eventContextOf, type DispatchContext } from './dispatch-context.js';
import { isDeterministicFailure } from './failures.js';
import { publishOutcome, replyIfAsked } from './publish-outcome.js';
import type { WalletTxRecord } from './wallet-tx-repository.js';

/** An admitted win: the operator to deliver it to and the record the checks read (the delivery goes on from it). */
export interface AdmittedWin {
  operator: OperatorConfig;
  record: WalletTxRecord;
}

/**
 * The operator to deliver `win` to, once it is admitted (`winAdmission` of the wallet domain decides,
 * on its record, with the event it must come from read only when needed); with the record as loaded
 * for the checks, so the delivery does not read it again. `undefined` when the win was refused or
 * dead-lettered here (and answered).
 */
export async function admitWin(
  context: DispatchContext,
  message: Message,
  win: WalletWinRequest,
): Promise<AdmittedWin | undefined> {
  const { records, deps } = context;
  const eventContext = eventContextOf(context, message, win.operatorId, win.transactionId);
  const record = await records.load(win.transactionId);
  const operator = deps.operators.get(win.operatorId);
  const facts = { operatorConfigured: operator !== undefined };
  let admission = winAdmission(record.state, win, facts);
  if (admission.verdict === 'check_source')
    admission = winAdmission(record.state, win, { ...facts, source: await context.sources.check(win) });
  switch (admission.verdict) {
    case 'deliver':
      if (operator) return { operator, record };
      throw new ReelstreamError('INTERNAL', `win ${win.transactionId} admitted without its operator`, {
        retriable: false,
      });
    case 'answer_from_record':
      await publishOutcome(context, message, record.state);
      return undefined;
    case 'refused_again':
      deps.log.error('refused win delivered again; still refused, not sent', {
        transactionId: win.transactionId,
        operatorId: win.operatorId,
        playerId: win.playerId,
        reason: admission.reason,
        detail: admission.detail,
      });
      await replyIfAsked(context, message, refusedReply(win, admission.reason, admission.detail));
      return undefined;
    case 'refuse':
      await refuseWin(context, message, record, eventContext, win, admission);
      return undefined;
    case 'dead_letter_stray':
      await deadLetterStray(context, message, record, eventContext, win, 'transaction_id_conflict', admission.detail);
      return undefined;
    case 'dead_letter_own': {
      const own = admission.record
        ? await records.execute(
            record,
            { type: 'RecordRequest', data: { request: win }, metadata: { now: context.now() } },
            eventContext,
          )
        : record;
      await deadLetterOwn(context, message, own, eventContext, 'operator_not_configured', admission.detail);
      return undefined;
    }
    case 'check_source':
      throw new ReelstreamError('INTERNAL', `win ${win.transactionId}: its source was checked and is asked for again`, {
        retriable: false,
      });
  }
}

/** A win that does not match the event it must come from: recorded as refused, logged, answered, never sent. */
async function refuseWin(
  context: DispatchContext,
  message: Message,
  record: WalletTxRecord,
  eventContext: EventContext,
  win: WalletWinRequest,
  refusal: { reason: WinRefusalReason; detail: string },
): Promise<void> {
  const { reason, detail } = refusal;
  await context.records.execute(
    record,
    { type: 'RefuseWin', data: { request: win, reason, detail }, metadata: { now: context.now() } },
    eventContext,
  );
  context.deps.log.error('win refused: it does not match the event it must come from; not sent', {
    transactionId: win.transactionId,
    operatorId: win.operatorId,
    playerId: win.playerId,
    amountMinor: win.amountMinor,
    reason,
    detail,
  });
  context.deps.onRefused?.({ operatorId: win.operatorId, command: 'win', reason });
  await replyIfAsked(context, message, refusedReply(win, reason, detail));
}

/**
 * A win whose handling failed the same way every time (the record refuses the step, or cannot be
 * read): dead-lettered with the reason instead of retried for ever or parked where nobody looks.
 */
export async function deadLetterFailedWin(
  context: DispatchContext,
  message: Message,
  win: WalletWinRequest,
  failure: Error,
): Promise<void> {
  const eventContext = eventContextOf(context, message, win.operatorId, win.transactionId);
  const detail = `transaction ${win.transactionId} cannot be handled: ${failure.message}`;
  let record: WalletTxRecord;
  try {
    record = await context.records.load(win.transactionId);
  } catch (error) {
    if (!isDeterministicFailure(error)) throw error;
    // The record cannot take a WinRefused: a win the store does not back is only logged and answered.
    const check = await context.sources.check(win);
    if (!check.ok) {
      context.deps.log.error('win refused: it does not match the event it must come from; not sent', {
        transactionId: win.transactionId,
        operatorId: win.operatorId,
        playerId: win.playerId,
        reason: check.reason,
        detail: check.detail,
      });
      await replyIfAsked(context, message, refusedReply(win, check.reason, check.detail));
      return;
    }
    await deadLetterInUnreadable(context, message, win, eventContext, detail);
    return;
  }
  const own = record.state.request !== undefined && sameRequest(record.state.request, win);
  if (own && !isSettled(record.state))
    await deadLetterOwn(context, message, record, eventContext, 'decision_refused', detail);
  else if (!own) await deadLetterStray(context, message, record, eventContext, win, 'decision_refused', detail);
  else await publishOutcome(context, message, record.state);
}

async function deadLetterOwn(
  context: DispatchContext,
  message: Message,
  record: WalletTxRecord,
  eventContext: EventContext,
  reason: WinDeadLetterReason,
  detail: string,
): Promise<void> {
  const parked = await context.records.execute(
    record,
    { type: 'DeadLetterWin', data: { reason, detail }, metadata: { now: context.now() } },
    eventContext,
  );
  const request = parked.state.request;
  context.deps.log.error('win dead-lettered; `npm run wallet:redrive` lists and re-drives it', {
    transactionId: record.transactionId,
    operatorId: request?.operatorId,
    command: 'win',
    playerId: request?.playerId,
    reason,
    detail,
  });
  await publishOutcome(context, message, parked.state);
}

async function deadLetterStray(
  context: DispatchContext,
  message: Message,
  record: WalletTxRecord,
  eventContext: EventContext,
  win: WalletWinRequest,
  reason: WinDeadLetterReason,
  detail: string,
): Promise<void> {
  const parked = await context.records.execute(
    record,
    { type: 'DeadLetterWin', data: { reason, detail, request: win }, metadata: { now: context.now() } },
    eventContext,
  );
  const letter = conflictDeadLettersOf(parked.state).find((candidate) => sameRequest(candidate.request, win));
  await announce(context, message, win, letter, reason, detail);
}

/** The record cannot be folded, so `walletTxDecider` cannot run: the dead letter is recorded by the one that can, once. */
async function deadLetterInUnreadable(
  context: DispatchContext,
  message: Message,
  win: WalletWinRequest,
  eventContext: EventContext,
  detail: string,
): Promise<void> {
  const letterEvent: WinDeadLettered = {
    type: 'WinDeadLettered',
    data: {
      attempts: 0,
      lastError: detail.slice(0, 1_000),
      at: context.now(),
      reason: 'decision_refused',
      request: win,
    },
  };
  // No refusal: a dead letter is recorded or already there.
  const handled = await handleCommand<WinDeadLettered, DeadLetteredWins, WinDeadLettered, never>(
    context.deps.store,
    walletTxStream(win.transactionId),
    unreadableRecordDecider,
    letterEvent,
    {
      context: { ...eventContext, commandId: eventContext.causationId, occurredAt: letterEvent.data.at },
      parse: (event) => (event.type === 'WinDeadLettered' ? (parseStoredEvent(event) as WinDeadLettered) : undefined),
    },
  );
  const at = unreadableRecordDecider.deadLetteredAt(handled.state, win) ?? letterEvent.data.at;
  const letter: WalletDeadLetter = {
    transactionId: win.transactionId,
    operatorId: win.operatorId,
    playerId: win.playerId,
    request: win,
    reason: 'decision_refused',
    attempts: 0,
    lastError: detail.slice(0, 1_000),
    deadLetteredAt: at,
  };
  await announce(context, message, win, letter, 'decision_refused', detail);
}

async function announce(
  context: DispatchContext,
  message: Message,
  win: WalletWinRequest,
  letter: WalletDeadLetter | undefined,
  reason: WinDeadLetterReason,
  detail: string,
): Promise<void> {
  context.deps.log.error('win dead-lettered; it cannot be sent under its transactionId', {
    transactionId: win.transactionId,
    operatorId: win.operatorId,
    command: 'win',
    playerId: win.playerId,
    reason,
    detail,
  });
  if (letter)
    await context.deps.bus.publish(Topics.walletDeadLetters, {
      key: playerKey(letter),
      value: letter,
      headers: { [Headers.messageType]: 'WalletDeadLetter' },
    });
  await replyIfAsked(context, message, {
    transactionId: win.transactionId,
    statusCode: 'ERR_UNKNOWN',
    canceled: false,
    reason: `dead-lettered (${reason}): ${detail}`.slice(0, 1_000),
  });
}

function refusedReply(win: WalletWinRequest, reason: string, detail: string) {
  return {
    transactionId: win.transactionId,
    statusCode: 'ERR_UNKNOWN' as const,
    canceled: false,
    reason: `win refused (${reason}), not sent: ${detail}`.slice(0, 1_000),
  };
}
