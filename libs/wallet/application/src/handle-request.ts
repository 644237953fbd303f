/**
 * The handler of `wallet.requests`: bet, win, betwin from the game-server and the bonus-ledger,
 * and re-drives from `npm run wallet:redrive`. A win is admitted first (win-intake.ts), a bet or
 * betwin too (stake-intake.ts): each must match the event it comes from. The
 * walletTx stream is the dedup record: a request whose outcome is recorded is answered from it
 * without calling the operator again; one left half-way by a crash is taken up where the record says.
 */
import {
  describeIssues,
  walletRequestsMessage,
  type EventContext,
  type OperatorConfig,
  type WalletRedriveRequest,
  type WalletRequest,
  type WalletWinRequest,
} from '@reelstream/contracts';
import type { Message } from '@reelstream/platform-ports';
import {
  deadlineOf,
  pastSendWindow,
  redriveRefusalOf,
  sameRequest,
  scheduledRedriveApplies,
} from '@reelstream/wallet-domain';
import { deliver } from './deliver.js';
import { eventContextOf, type DispatchContext } from './dispatch-context.js';
import { asError, givesUp, isDeterministicFailure } from './failures.js';
import { park, publishOutcome, replyIfAsked } from './publish-outcome.js';
import { retryDispatch, type WalletTxRecord } from './wallet-tx-repository.js';
import { admitStake } from './stake-intake.js';
import { admitWin, deadLetterFailedWin } from './win-intake.js';

/**
 * `signal`: the bus handler's; it aborts the operator call (see `deliver`). `attempt`: the bus's count
 * of this message's deliveries, 1 first; a failure it gives up on (failures.ts) is recorded, not retried.
 */
export async function handleWalletRequest(
  context: DispatchContext,
  message: Message,
  signal?: AbortSignal,
  attempt = 1,
): Promise<void> {
  const parsed = walletRequestsMessage.safeParse(message.value);
  if (!parsed.success) {
    await park(context, message, `invalid wallet request: ${describeIssues(parsed.error.issues)}`);
    return;
  }
  const request = parsed.data;
  if (request.command === 'redrive') return handleRedrive(context, message, request, signal);
  if (request.command === 'win') return handleWin(context, message, request, signal, attempt);
  const operator = context.deps.operators.get(request.operatorId);
  if (!operator) {
    await refuseAndPark(
      context,
      message,
      request,
      `operator ${request.operatorId} is not configured on this dispatcher`,
    );
    return;
  }
  try {
    if (!(await admitStake(context, message, request))) return;
    await retryDispatch(request.transactionId, (attempt) =>
      dispatch(context, message, request, operator, attempt === 1, signal),
    );
  } catch (error) {
    if (!givesUp(error, attempt)) throw error;
    await giveUpStake(context, message, request, asError(error), attempt);
  }
}

/**
 * A wallet request the delay consumer cannot put back on `wallet.requests`, given up as this handler
 * gives up what it cannot mend (failures.ts): a win dead-lettered on its record, a bet or betwin
 * failed for good with its cancel and parked; a re-drive (its win stays dead-lettered) or a message
 * that is no request only parked.
 */
export async function giveUpWalletRequest(
  context: DispatchContext,
  message: Message,
  failure: Error,
  attempts: number,
): Promise<void> {
  const parsed = walletRequestsMessage.safeParse(message.value);
  if (!parsed.success) {
    await park(context, message, `invalid wallet request: ${describeIssues(parsed.error.issues)}`, attempts);
    return;
  }
  const request = parsed.data;
  if (request.command === 'win') return deadLetterFailedWin(context, message, request, failure);
  if (request.command === 'redrive') {
    const reason = `re-drive of transaction ${request.transactionId} given up: ${failure.message}; the win stays dead-lettered`;
    await park(context, message, reason, attempts);
    return;
  }
  await giveUpStake(context, message, request, failure, attempts);
}

/**
 * A bet or betwin its handler cannot finish: whether it reached the operator is unknown, so its record
 * takes it as failed for good with its cancel (sent like after a time-out, D9; the asker is answered
 * canceled), then the message is parked with the reason, logged and counted. Money is never left
 * half-moved. A record that cannot take that — none for this request (it was never sent: the asker is
 * answered non-OK), another request under its transactionId, or one this release cannot read — leaves
 * only the parked message, to be looked at.
 */
async function giveUpStake(
  context: DispatchContext,
  message: Message,
  request: Exclude<WalletRequest, WalletWinRequest>,
  failure: Error,
  attempts: number,
): Promise<void> {
  const reason = `transaction ${request.transactionId} cannot be handled: ${failure.message}`;
  const eventContext = eventContextOf(context, message, request.operatorId, request.transactionId);
  try {
    const abandoned = await retryDispatch(request.transactionId, async () => {
      const record = await context.records.load(request.transactionId);
      if (record.state.request && !sameRequest(record.state.request, request)) return undefined;
      return context.records.execute(
        record,
        {
          type: 'AbandonStake',
          data: { cancelTransactionId: context.deps.ids.next(), error: failure.message },
          metadata: { now: context.now() },
        },
        eventContext,
      );
    });
    if (abandoned) {
      // A record already settled keeps its outcome: the asker is answered from it.
      const settled = abandoned.state.status === 'succeeded';
      context.deps.log.error(
        settled ? 'bet given up after its outcome' : 'bet given up: failed for good and canceled',
        {
          transactionId: request.transactionId,
          command: request.command,
          status: abandoned.state.status,
          cancelTransactionId: abandoned.state.cancel?.cancelTransactionId,
          error: failure,
        },
      );
      await publishOutcome(context, message, abandoned.state);
    } else {
      await replyIfAsked(context, message, refusedStake(request, reason));
    }
  } catch (error) {
    if (!isDeterministicFailure(error)) throw error;
    await replyIfAsked(context, message, refusedStake(request, `${reason}; its record: ${error.message}`));
  }
  await park(context, message, reason, attempts);
}

function refusedStake(request: WalletRequest, reason: string) {
  return { transactionId: request.transactionId, statusCode: 'ERR_UNKNOWN' as const, canceled: false, reason };
}

/** A win is sent only once admitted; one that is not delivered ends as a dead-letter event, never on a `.dlq` topic. */
async function handleWin(
  context: DispatchContext,
  message: Message,
  win: WalletWinRequest,
  signal: AbortSignal | undefined,
  attempt: number,
): Promise<void> {
  try {
    await retryDispatch(win.transactionId, async (round) => {
      const admitted = await admitWin(context, message, win);
      if (admitted) await dispatch(context, message, win, admitted.operator, round === 1, signal, admitted.record);
    });
  } catch (error) {
    if (!givesUp(error, attempt)) throw error;
    await deadLetterFailedWin(context, message, win, asError(error));
  }
}

/** A re-drive changes nothing unless it can deliver: a win whose operator is still not configured stays dead-lettered. */
async function handleRedrive(
  context: DispatchContext,
  message: Message,
  command: WalletRedriveRequest,
  signal: AbortSignal | undefined,
): Promise<void> {
  const fail = (reason: string) =>
    replyIfAsked(context, message, {
      transactionId: command.transactionId,
      statusCode: 'ERR_UNKNOWN',
      canceled: false,
      reason,
    });
  const operator = context.deps.operators.get(command.operatorId);
  if (!operator) {
    context.deps.log.warn('re-drive refused: operator not configured; the win stays dead-lettered', {
      transactionId: command.transactionId,
      operatorId: command.operatorId,
    });
    await fail(
      `operator ${command.operatorId} is not configured on this dispatcher: the win stays dead-lettered; configure the operator and re-drive again`,
    );
    return;
  }
  try {
    await retryDispatch(command.transactionId, () => redrive(context, message, command, operator, signal));
  } catch (error) {
    if (!isDeterministicFailure(error)) throw error;
    context.deps.log.error('re-drive failed; the win stays dead-lettered', {
      transactionId: command.transactionId,
      error,
    });
    await fail(`transaction ${command.transactionId} cannot be re-driven: ${error.message}; it stays dead-lettered`);
  }
}

async function dispatch(
  context: DispatchContext,
  message: Message,
  request: WalletRequest,
  operator: OperatorConfig,
  firstRound: boolean,
  signal: AbortSignal | undefined,
  /** The record as just loaded in this attempt (a win's admission read it): not read again. */
  loaded?: WalletTxRecord,
): Promise<void> {
  const { records, deps } = context;
  const eventContext = eventContextOf(context, message, request.operatorId, request.transactionId);
  let record = loaded ?? (await records.load(request.transactionId));
  if (record.state.request && !sameRequest(record.state.request, request)) {
    await refuseReusedTransactionId(context, message, request, record.state.request);
    return;
  }
  if (record.state.status !== 'new' && firstRound) {
    deps.log.info('wallet request redelivered', {
      transactionId: request.transactionId,
      command: request.command,
      status: record.state.status,
      inFlight: record.state.inFlight,
      offset: message.offset,
    });
  }
  const now = { now: context.now() };
  if (record.state.status === 'new' && pastSendWindow(request, now.now)) {
    record = await expireUnsent(context, record, request, eventContext, now.now);
  } else if (record.state.status === 'new') {
    // The request and its first attempt in one append: one write before the call, not two.
    record = await records.executeAll(
      record,
      [
        { type: 'RecordRequest', data: { request }, metadata: now },
        { type: 'StartAttempt', data: {}, metadata: now },
      ],
      eventContext,
    );
    record = await deliver(context, record, operator, eventContext, {
      redrive: false,
      attemptRecorded: true,
      ...(signal ? { signal } : {}),
    });
  } else {
    record = await deliver(context, record, operator, eventContext, { redrive: false, ...(signal ? { signal } : {}) });
  }
  await publishOutcome(context, message, record.state);
}

/** A request under a transactionId recorded for another: refused and parked; the recorded one stands. */
async function refuseReusedTransactionId(
  context: DispatchContext,
  message: Message,
  request: WalletRequest,
  recorded: WalletRequest,
): Promise<void> {
  const reason = `transactionId ${request.transactionId} is already used by another ${recorded.command}; this request is refused and the recorded one stands`;
  context.deps.log.warn('transactionId reused with another request', {
    transactionId: request.transactionId,
    recorded,
    received: request,
  });
  await refuseAndPark(context, message, request, reason);
}

/** A request that will never be sent: its caller, if waiting, is answered ERR_UNKNOWN with the reason, and the message is parked. */
async function refuseAndPark(
  context: DispatchContext,
  message: Message,
  request: WalletRequest,
  reason: string,
): Promise<void> {
  await replyIfAsked(context, message, refusedStake(request, reason));
  await park(context, message, reason);
}

/**
 * Taken too late (a lagging dispatcher): never sent; the request and its time-out in one append, which
 * loses to any other dispatcher's first append on this stream, so the bet is either sent or canceled.
 */
async function expireUnsent(
  context: DispatchContext,
  record: WalletTxRecord,
  request: WalletRequest,
  eventContext: EventContext,
  takenAt: string,
): Promise<WalletTxRecord> {
  const { records, deps } = context;
  const expired = await records.executeAll(
    record,
    [
      { type: 'RecordRequest', data: { request }, metadata: { now: takenAt } },
      { type: 'ExpireRequest', data: { cancelTransactionId: deps.ids.next() }, metadata: { now: takenAt } },
    ],
    eventContext,
  );
  deps.log.warn('bet not sent: its deadline had passed when the dispatcher took it; the round is canceled', {
    transactionId: request.transactionId,
    command: request.command,
    deadline: deadlineOf(request),
    takenAt,
    cancelTransactionId: expired.state.cancel?.cancelTransactionId,
  });
  return expired;
}

async function redrive(
  context: DispatchContext,
  message: Message,
  command: WalletRedriveRequest,
  operator: OperatorConfig,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { records, deps } = context;
  const { transactionId } = command;
  let record = await records.load(transactionId);
  // A scheduled re-drive is of one dead letter: sent twice (two schedulers in a lease hand-over, a redelivery), the second finds the record moved on.
  if (command.deadLetter !== undefined && !scheduledRedriveApplies(record.state, command.deadLetter)) {
    deps.log.debug('scheduled re-drive already done', {
      transactionId,
      deadLetter: command.deadLetter,
      status: record.state.status,
      deadLetters: record.state.deadLetters,
    });
    return;
  }
  const refused = redriveRefusalOf(record.state, command);
  if (refused !== undefined) {
    await replyIfAsked(context, message, {
      transactionId,
      statusCode: 'ERR_UNKNOWN',
      canceled: false,
      reason: refused,
    });
    return;
  }
  const scheduled = command.deadLetter !== undefined;
  deps.log.info('re-driving a win', {
    transactionId,
    status: record.state.status,
    attempts: record.state.attempts,
    scheduled,
  });
  record = await deliver(
    context,
    record,
    operator,
    eventContextOf(context, message, command.operatorId, transactionId),
    { redrive: true, scheduled, ...(signal ? { signal } : {}) },
  );
  await publishOutcome(context, message, record.state);
}
