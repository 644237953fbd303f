/**
 * @reelstream/wallet-adapters: the wallet context's I/O — the OperatorWallet port over got, which
 * sends callbacks signed by wallet-domain's `signCallbackBody` (D8).
 */
export { GotOperatorWallet } from './got-operator-wallet.js';
// The conformance kit's own client: it signs written out (not with signCallbackBody) so an operator reading it sees D8.
export { WalletClient, describeResult, type CallResult } from './conformance-client.js';
export { GotWebhookSender } from './got-webhook-sender.js';
