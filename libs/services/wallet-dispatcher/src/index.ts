/**
 * @reelstream/service-wallet-dispatcher: the wallet-dispatcher's runtime — the got-based
 * OperatorWallet (signed callbacks, D8), its config, health server and `startWalletDispatcher`.
 */
export * from './config.js';
export * from './got-operator-wallet.js';
export * from './health-server.js';
export * from './signature.js';
export * from './start.js';
export * from './redrive-cli.js';
