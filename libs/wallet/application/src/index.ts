/**
 * @reelstream/wallet-application: the wallet dispatch use case against the ports — requests in
 * from `wallet.requests`, one signed callback per attempt through the `OperatorWallet` port, the
 * walletTx stream as the record and dedup key, replies, cancels that survive restarts
 * (docs/adr/0002-cancel-delivery.md), dead letters and their re-drive.
 */
export * from './dead-letters.js';
export * from './deliver.js';
export * from './dispatch-context.js';
export * from './failures.js';
export * from './handle-cancel.js';
export * from './handle-request.js';
export * from './operator-bulkhead.js';
export * from './ports.js';
export * from './publish-outcome.js';
export * from './redrive.js';
export * from './reschedule.js';
export * from './subscriptions.js';
export * from './wallet-tx-repository.js';
export * from './win-intake.js';
export * from './win-source.js';
