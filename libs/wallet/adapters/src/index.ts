/**
 * @reelstream/wallet-adapters: the wallet context's I/O — the OperatorWallet port over HTTP (undici),
 * which sends callbacks signed by wallet-domain's `signCallbackBody` (D8), and the webhook sender.
 */
export { HttpOperatorWallet } from './http-operator-wallet.js';
// The conformance kit's own client: it signs written out (not with signCallbackBody) so an operator reading it sees D8.
export { WalletClient, describeResult, type CallResult } from './conformance-client.js';
export { HttpWebhookSender } from './http-webhook-sender.js';
export { SqliteReconciliationReadModel } from './sqlite-reconciliation-read-model.js';
