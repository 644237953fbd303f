/**
 * @reelstream/wallet-service: the wallet-dispatcher's edge — its config, health
 * endpoints, the redrive CLI and `startWalletDispatcher` (the HTTP client, over undici, is `@reelstream/wallet-adapters`).
 */
export { dispatcherSettingsFromEnv, dispatcherEnv } from './config.js';
export { startWalletDispatcher, type WalletDispatcher } from './start.js';
export {
  parseSince,
  parseRedriveArguments,
  listDeadLetters,
  dryRunRedrive,
  runRedrive,
  REDRIVE_USAGE,
} from './redrive-cli.js';
