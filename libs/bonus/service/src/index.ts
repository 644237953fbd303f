/**
 * @reelstream/bonus-service: the bonus-ledger's edge — config, the `bonus.commands`
 * consumer, health endpoints and `startBonusLedger` (the read model is `@reelstream/bonus-adapters`).
 */
export { ledgerEnv, readModelPath } from './config.js';
export { startBonusLedger, type BonusLedger } from './start-bonus-ledger.js';
