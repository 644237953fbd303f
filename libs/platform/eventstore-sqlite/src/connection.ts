import Database from 'better-sqlite3';
import { ensureEventStoreSchema } from './schema.js';

export interface ConnectionOptions {
  synchronous: 'FULL' | 'NORMAL';
  busyTimeoutMs: number;
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
/** Opening is synchronous (better-sqlite3), so waiting for another process is too. */
const sleepSync = (ms: number) => Atomics.wait(sleepCell, 0, 0, ms);

/**
 * Opens the file in WAL mode with the store's schema. Safe when several processes open a new
 * file at the same moment: busy_timeout comes first, the switch to WAL is retried (SQLite answers
 * SQLITE_BUSY to it at once, without its busy handler, while another connection holds the file),
 * and the schema is created inside BEGIN IMMEDIATE.
 */
export function openConnection(path: string, options: ConnectionOptions): Database.Database {
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
    switchToWal(db, options.busyTimeoutMs);
    // FULL syncs the WAL at every commit: a resolved append survives power loss. NORMAL would
    // sync only at checkpoints and can lose the last commits on power loss.
    db.pragma(`synchronous = ${options.synchronous}`);
    ensureEventStoreSchema(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function switchToWal(db: Database.Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal' && !db.memory)
        throw new Error(`${db.name} refused WAL mode (journal_mode is ${String(mode)})`);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      sleepSync(5 + Math.random() * 10);
    }
  }
}
