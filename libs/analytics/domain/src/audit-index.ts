// The round audit and the reconciliation.
export * from './audit/wallet-transaction.js';
export * from './audit/round-audit.js';
export * from './reconcile/operator-csv.js';
export * from './reconcile/reconcile.js';
export * from './charts/chart-data.js';
