/**
 * @reelstream/sandbox-adapters: the operator sandbox's storage — its SQLite file, the reference
 * wallet's ledger (each callback in one transaction) and the admin API's views of it.
 */
export * from './ledger-views.js';
export * from './request-hash.js';
export * from './wallet-database.js';
export * from './wallet-ledger.js';
