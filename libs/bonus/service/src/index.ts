/**
 * @reelstream/service-bonus-ledger: the bonus-ledger's edge — config, the `bonus.commands`
 * consumer, health endpoints and `startBonusLedger` (the read model is `@reelstream/bonus-adapters`).
 */
export { ledgerEnv, readModelPath, type LedgerEnv } from './config.js';
export { subscribeBonusCommands, LEDGER_CONSUMER_GROUP, MAX_ATTEMPTS } from './command-consumer.js';
export {
  startBonusLedger,
  type BonusLedger,
  type BonusLedgerConfig,
  type BonusLedgerDeps,
} from './start-bonus-ledger.js';
