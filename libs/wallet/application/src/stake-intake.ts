/**
 * What happens to a bet or betwin before it may be sent: like a win (win-intake.ts), it must match
 * the event it comes from — its round's RoundStarted, which the game-server stores before it
 * publishes the request. One that does not is refused: recorded as `StakeRefused` in its
 * transaction's stream, logged at error, counted for the alert, answered non-OK, never sent.
 */
import type { Message } from '@reelstream/platform-ports';
import { identicalRequest, sameRequest, type StakeRequest } from '@reelstream/wallet-domain';
import { eventContextOf, type DispatchContext } from './dispatch-context.js';
import { replyIfAsked } from './publish-outcome.js';
import { retryDispatch } from './wallet-tx-repository.js';

/** True when `request` may be delivered; false when it was refused here (and recorded, logged and answered). */
export function admitStake(context: DispatchContext, message: Message, request: StakeRequest): Promise<boolean> {
  return retryDispatch(request.transactionId, () => decideAdmission(context, message, request));
}

async function decideAdmission(context: DispatchContext, message: Message, request: StakeRequest): Promise<boolean> {
  const { records, deps } = context;
  const record = await records.load(request.transactionId);
  // Recorded before: its source was checked then.
  if (record.state.request && sameRequest(record.state.request, request)) return true;
  const fields = {
    transactionId: request.transactionId,
    command: request.command,
    operatorId: request.operatorId,
    playerId: request.playerId,
    roundId: request.roundId,
  };
  const earlier = record.state.refusedStakes.find((refusal) => identicalRequest(refusal.request, request));
  if (earlier) {
    deps.log.error('refused bet delivered again; still refused, not sent', { ...fields, reason: earlier.reason });
    await replyIfAsked(context, message, refusedReply(request, earlier.reason, earlier.detail));
    return false;
  }
  const check = await context.sources.checkStake(request);
  if (check.ok) return true;
  await records.execute(
    record,
    {
      type: 'RefuseStake',
      data: { request, reason: check.reason, detail: check.detail },
      metadata: { now: context.now() },
    },
    eventContextOf(context, message, request.operatorId, request.transactionId),
  );
  deps.log.error(`${request.command} refused: it does not match its round's RoundStarted; not sent`, {
    ...fields,
    reason: check.reason,
    detail: check.detail,
  });
  deps.onRefused?.({ operatorId: request.operatorId, command: request.command, reason: check.reason });
  await replyIfAsked(context, message, refusedReply(request, check.reason, check.detail));
  return false;
}

function refusedReply(request: StakeRequest, reason: string, detail: string) {
  return {
    transactionId: request.transactionId,
    statusCode: 'ERR_UNKNOWN' as const,
    canceled: false,
    reason: `${request.command} refused (${reason}), not sent: ${detail}`.slice(0, 1_000),
  };
}
