/**
 * @reelstream/wallet-adapters: the wallet context's I/O — the OperatorWallet port over got (signed
 * callbacks, D8) and the signature it sends.
 */
export { GotOperatorWallet } from './got-operator-wallet.js';
export { signCallbackBody } from './signature.js';
// The conformance kit's own client: it signs written out (not with signCallbackBody) so an operator reading it sees D8.
export { WalletClient, describeResult, type CallResult } from './conformance-client.js';
