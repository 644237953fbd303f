/**
 * @reelstream/bonus-adapters: the bonus context's I/O — the ledger's SQLite read model (queries,
 * projection writes, rebuild from the log) and the count of bonus state changes every service
 * that appends them reports.
 */
export { SqliteBonusReadModel } from './read-model/sqlite-bonus-read-model.js';
export { READ_MODEL_CHECKPOINT } from './read-model/schema.js';
export { rebuildBonusReadModel } from './read-model/rebuild.js';
export { bonusStateChangeCounter } from './state-change-metrics.js';
