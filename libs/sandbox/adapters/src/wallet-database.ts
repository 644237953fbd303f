/**
 * The sandbox wallet's own SQLite file: accounts (a balance per operator, player and currency),
 * the transaction ledger keyed by (operator, transactionId) with the request's hash and the
 * original response, cancels that arrived before the transaction they cancel, and a log of every
 * callback received (for per-player order checks and demos).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SandboxDatabase = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sandbox_accounts (
  operator_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  currency TEXT NOT NULL,
  balance_minor INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (operator_id, player_id, currency)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS sandbox_transactions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id TEXT NOT NULL,
  transaction_id INTEGER NOT NULL,
  command TEXT NOT NULL,
  player_id TEXT NOT NULL,
  round_id INTEGER NOT NULL,
  currency TEXT NOT NULL,
  debit_minor INTEGER NOT NULL,
  credit_minor INTEGER NOT NULL,
  ref_transaction_id INTEGER,
  status_code TEXT NOT NULL,
  applied INTEGER NOT NULL,
  canceled_by INTEGER,
  cancel_effect TEXT,
  request_hash TEXT NOT NULL,
  request_json TEXT NOT NULL,
  response_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (operator_id, transaction_id)
);
CREATE INDEX IF NOT EXISTS sandbox_transactions_by_player ON sandbox_transactions (operator_id, player_id, seq);
CREATE INDEX IF NOT EXISTS sandbox_transactions_by_round ON sandbox_transactions (operator_id, player_id, round_id);

CREATE TABLE IF NOT EXISTS sandbox_cancel_marks (
  operator_id TEXT NOT NULL,
  ref_transaction_id INTEGER NOT NULL,
  cancel_transaction_id INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (operator_id, ref_transaction_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS sandbox_requests (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id TEXT NOT NULL,
  player_id TEXT,
  command TEXT,
  transaction_id INTEGER,
  outcome TEXT NOT NULL,
  status_code TEXT,
  fault_id INTEGER,
  received_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sandbox_requests_by_player ON sandbox_requests (operator_id, player_id, seq);
`;

export interface SandboxDatabaseOptions {
  /** NORMAL (default) survives a crash of the process; FULL also a power cut, at an fsync per callback. */
  synchronous?: 'NORMAL' | 'FULL';
}

export function openSandboxDatabase(path: string, options: SandboxDatabaseOptions = {}): SandboxDatabase {
  // For ':memory:' the folder is '.', which is there already.
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  return db;
}

/** Throws when the file cannot be read (the sandbox's readiness). */
export function checkSandboxDatabase(db: SandboxDatabase): void {
  db.prepare('SELECT 1').get();
}
