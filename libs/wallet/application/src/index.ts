/**
 * @reelstream/wallet-application: the wallet dispatch use case against the ports — requests in
 * from `wallet.requests`, one signed callback per attempt through the `OperatorWallet` port, the
 * walletTx stream as the record and dedup key, replies, cancels that survive restarts
 * (docs/adr/0002-cancel-delivery.md), dead letters and their re-drive.
 */
export { findDeadLetteredWins, standingDeadLetters } from './dead-letters.js';
// What other contexts read of the wallet's rules: the delivery policies (the game-server waits past a bet's time
// limit) and a walletTx stream's dead-letter view (the gateway's reconciliation lists and re-drive schedule).
export {
  conflictDeadLettersOf,
  deadLetterOf,
  DeliveryPolicies,
  nextRedriveAt,
  winRedriveOf,
  type WalletTxState,
} from '@reelstream/wallet-domain';
export {
  CANCEL_NOT_DELIVERED_REASONS,
  dispatchContext,
  type CancelNotDeliveredReason,
  type WalletDispatchDeps,
} from './dispatch-context.js';
export { UNCLASSIFIED_FAILURE_ATTEMPTS } from './failures.js';
export { handleCancelDelivery } from './handle-cancel.js';
export { handleWalletRequest } from './handle-request.js';
export {
  type BulkheadLimits,
  defaultBulkheadLimits,
  type CircuitChange,
  type CircuitState,
  limitsForShare,
  OperatorBulkhead,
  OperatorBulkheadWallet,
} from './operator-bulkhead.js';
export { type OperatorWallet, type OperatorLookup, type DispatchLog, silentLog } from './ports.js';
export { notRedrivable, redriveDeadLetters, redriveLetter, type RedriveSummary } from './redrive.js';
export { handleDelayedMessage, RetryTiers, NotDueYet } from './reschedule.js';
export { runWinRedriveSchedule, WinRedriveScheduler } from './scheduled-redrive.js';
export { walletSubscriptions, DEFAULT_KEY_CONCURRENCY } from './subscriptions.js';
export { retryDispatch, WalletDecisionRefused, WalletTxRepository } from './wallet-tx-repository.js';
export { WinSourceChecker } from './win-source.js';
export { WEBHOOK_MAX_ATTEMPTS, type WebhookSender } from './webhooks.js';
export { redriveParkedWebhooks } from './webhook-redrive.js';
export { letterContext, recordWebhookRedrive, webhookLetterStreams } from './webhook-letter-streams.js';
export {
  reconciliationChange,
  RECONCILIATION_CHECKPOINT,
  RECONCILIATION_FILTER,
  startReconciliationProjection,
  type DeadLetterRow,
  type ReconciliationChange,
  type ReconciliationList,
  type ReconciliationProjection,
  type ReconciliationReadModel,
  type ReconciliationReadModels,
  type StoredWalletTx,
  type TransactionRow,
  type TransactionRowQuery,
  type WebhookLetterRow,
  type WalletTxChange,
  type WalletTxRow,
  type WebhookLetterChange,
} from './reconciliation-projection.js';
