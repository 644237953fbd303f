/**
 * @reelstream/sandbox-adapters: the operator sandbox's storage — its SQLite file, the reference
 * wallet's ledger (each callback in one transaction) and the admin API's views of it.
 */
export { type TransactionView, type RequestOutcome, type LedgerFilter, LedgerViews } from './ledger-views.js';
export { openSandboxDatabase, checkSandboxDatabase } from './wallet-database.js';
export { type WalletResponse, SandboxWallet } from './wallet-ledger.js';
