/**
 * @reelstream/wallet-domain: the rules of wallet callbacks, pure. The delivery policy per command
 * (time limits, attempts, cancel or dead letter), the walletTx decider (evolve/decide), what the
 * record says to do next, the callback bodies (D9, D22) and their signature (D8). No I/O: HTTP
 * lives in @reelstream/wallet-adapters.
 */
export {
  answerFromCall,
  isOk,
  failureStatusCode,
  describeAnswer,
  type OperatorCallResult,
  type OperatorAnswer,
} from './answer.js';
export { unixSecondsOf, callbackFor, cancelCallbackFor } from './callback-body.js';
export { type WalletTxCommand } from './commands.js';
export { needsCancelTransactionId, decide, walletTxDecider } from './decide.js';
export { walletRefusal, isWalletRefusal, type WalletRefusal } from './errors.js';
export { deadlineOf, windowLeftMs, pastSendWindow, sendWithinMs } from './deadline.js';
export { evolve } from './evolve.js';
export { nextAttempt, replyFromRecord, pendingCancel, deadLetterOf, conflictDeadLettersOf } from './next-step.js';
export { deliveryPolicyFor, delayBeforeAttempt, cancelRetryDelayMs, DeliveryPolicies, CancelPolicy } from './policy.js';
export { redriveRefusalOf } from './redrive.js';
export { nextRedriveAt, redriveScheduleOver, scheduledRedriveApplies, winRedriveOf } from './redrive-schedule.js';
export { sameRequest, identicalRequest } from './same-request.js';
export {
  isSettled,
  type StakeRequest,
  type WalletTxState,
  type WinRefusalReason,
  initialWalletTxState,
} from './state.js';
export { checkStake, type StakeSourceCheck } from './stake-source.js';
export { type WinDeadLettered, type DeadLetteredWins, unreadableRecordDecider } from './unreadable-record.js';
export * from './signed-content.js';
export * from './win-source.js';
export { winAdmission } from './win-admission.js';
export { webhookLetterDecider, type WebhookLetterCommand, type WebhookLetterState } from './webhook-letter.js';
