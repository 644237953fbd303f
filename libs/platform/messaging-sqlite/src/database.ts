import Database from 'better-sqlite3';
import { BUS_SCHEMA } from './schema.js';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  synchronous: 'FULL' | 'NORMAL';
  busyTimeoutMs: number;
  readonly?: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT';
}

/**
 * Switching to WAL needs a moment of exclusive access, which SQLite reports as SQLITE_BUSY
 * without consulting the busy handler when another process opens the file at the same time:
 * retry for as long as the busy timeout allows.
 */
async function retryWhileBusy<T>(what: string, timeoutMs: number, action: () => T): Promise<T> {
  const deadline = Date.now() + Math.max(timeoutMs, 1_000);
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      return action();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) {
        throw new Error(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      await sleep(delay);
    }
  }
}

/** Opens a connection in WAL mode with the bus schema in place. */
export async function openDatabase(path: string, options: OpenDatabaseOptions): Promise<Db> {
  const db = new Database(path, options.readonly ? { readonly: true, fileMustExist: true } : {});
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    if (!options.readonly) {
      await retryWhileBusy(`enabling WAL on ${path}`, options.busyTimeoutMs, () => {
        const mode = db.pragma('journal_mode = WAL', { simple: true });
        if (mode !== 'wal') throw new Error(`journal_mode is ${String(mode)}, expected wal`);
      });
      db.pragma(`synchronous = ${options.synchronous}`);
      const createSchema = db.transaction(() => db.exec(BUS_SCHEMA));
      await retryWhileBusy(`creating the bus schema in ${path}`, options.busyTimeoutMs, () => createSchema.immediate());
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

const SYNCHRONOUS_FULL = 2;

/**
 * Runs a bookkeeping transaction (offset commits, leases, heartbeats) without its own fsync. In
 * WAL mode such a commit still reaches the disk with the next synchronous one; power loss can only
 * roll back the newest of them, which means a redelivery (at least once), never a lost message.
 * Publishes keep the configured durability.
 */
export function withoutOwnFsync<T>(db: Db, transaction: () => T): T {
  const pragmas = synchronousPragmasOf(db);
  if (pragmas.read.get() !== SYNCHRONOUS_FULL) return transaction();
  pragmas.normal.run();
  try {
    return transaction();
  } finally {
    pragmas.full.run();
  }
}

interface SynchronousPragmas {
  read: Database.Statement<[], number>;
  normal: Database.Statement;
  full: Database.Statement;
}

// Prepared once per connection: `db.pragma()` parses its statement on every call, and heartbeats and offset commits
// run this several times per message (docs/performance.md).
const synchronousPragmas = new WeakMap<Db, SynchronousPragmas>();

function synchronousPragmasOf(db: Db): SynchronousPragmas {
  let pragmas = synchronousPragmas.get(db);
  if (!pragmas) {
    pragmas = {
      read: db.prepare<[], number>('PRAGMA synchronous').pluck(),
      normal: db.prepare('PRAGMA synchronous = NORMAL'),
      full: db.prepare('PRAGMA synchronous = FULL'),
    };
    synchronousPragmas.set(db, pragmas);
  }
  return pragmas;
}
