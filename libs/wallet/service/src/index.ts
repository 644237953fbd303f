/**
 * @reelstream/service-wallet-dispatcher: the wallet-dispatcher's edge — its config, health
 * endpoints, the redrive CLI and `startWalletDispatcher` (the got client is `@reelstream/wallet-adapters`).
 */
export * from './config.js';
export * from './start.js';
export * from './redrive-cli.js';
