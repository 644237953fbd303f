/**
 * @reelstream/service-bonus-ledger: the bonus-ledger's runtime — config, SQLite read model,
 * `bonus.commands` consumer, health endpoints, and `startBonusLedger`.
 */
export { ledgerEnv, readModelPath, type LedgerEnv } from './config.js';
// Shared by every service that reads the catalog (@reelstream/config); re-exported because the app takes it from here.
export { DEFAULT_CATALOG_FILE } from '@reelstream/config';
export { catalogLookup, loadCatalogFile } from './catalog.js';
export { SqliteBonusReadModel, type SqliteBonusReadModelOptions } from './read-model/sqlite-bonus-read-model.js';
export { READ_MODEL_CHECKPOINT } from './read-model/schema.js';
export { rebuildBonusReadModel } from './read-model/rebuild.js';
export { subscribeBonusCommands, LEDGER_CONSUMER_GROUP, MAX_ATTEMPTS } from './command-consumer.js';
export { startHealthServer, type HealthServer } from './health-server.js';
export {
  startBonusLedger,
  type BonusLedger,
  type BonusLedgerConfig,
  type BonusLedgerDeps,
} from './start-bonus-ledger.js';
