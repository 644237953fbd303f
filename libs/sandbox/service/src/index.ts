/**
 * @reelstream/sandbox-service: a reference operator wallet — balances per player and
 * currency in SQLite, signatures checked (D8), each transactionId applied once, atomic betwin,
 * cancels per D9 — with an admin API and fault injection for tests and demos.
 */
export { adminTokenMatches } from './admin-routes.js';
export * from './config.js';
export * from './faults.js';
export * from './ledger-export.js';
export * from './signature.js';
export * from './start.js';
