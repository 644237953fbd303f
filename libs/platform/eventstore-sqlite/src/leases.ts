import type { Database, Statement } from 'better-sqlite3';
import { FencedOutError, type Lease, type LeasesAndFencedCheckpoints, type Position } from '@reelstream/platform-ports';
import { readCheckpoint, writeCheckpoint, type ComparePositions } from './checkpoints.js';
import { compareDecimalPositions } from './positions.js';

/**
 * Leases live in `es_leases` of the event store's file, next to `es_checkpoints`, so a fenced
 * checkpoint write checks the token and moves the checkpoint in one transaction. A row is never
 * deleted: its token is the newest granted for the name, and a release only sets `expires_at` to 0.
 */
const LEASES_DDL = `CREATE TABLE IF NOT EXISTS es_leases (
  name       TEXT    PRIMARY KEY,
  owner      TEXT    NOT NULL,
  token      INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT`;

interface LeaseRow {
  owner: string;
  token: number;
  expires_at: number;
}

interface LeaseStatements {
  read: Statement<[string], LeaseRow>;
  write: Statement<[string, string, number, number]>;
  /** The connection syncs every commit (FULL): a lease transaction then sets NORMAL for its own. */
  syncsEveryCommit: boolean;
  normal: Statement;
  full: Statement;
}

const SYNCHRONOUS_FULL = 2;

const statementsByDb = new WeakMap<Database, LeaseStatements>();

function statementsFor(db: Database): LeaseStatements {
  let statements = statementsByDb.get(db);
  if (!statements) {
    db.exec(LEASES_DDL);
    statements = {
      read: db.prepare<[string], LeaseRow>('SELECT owner, token, expires_at FROM es_leases WHERE name = ?'),
      write: db.prepare<[string, string, number, number]>(
        `INSERT INTO es_leases (name, owner, token, expires_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, token = excluded.token, expires_at = excluded.expires_at`,
      ),
      // Read once: the connection's mode is set when it opens, and only withoutOwnFsync changes it, and back.
      syncsEveryCommit: db.prepare<[], number>('PRAGMA synchronous').pluck().get() === SYNCHRONOUS_FULL,
      normal: db.prepare('PRAGMA synchronous = NORMAL'),
      full: db.prepare('PRAGMA synchronous = FULL'),
    };
    statementsByDb.set(db, statements);
  }
  return statements;
}

/**
 * Runs a lease transaction without its own fsync (a spin claim is two of them per spin). In WAL
 * mode its commit reaches the disk with the next synchronous one; power loss can only roll back
 * the newest grants, and it stops every process on the machine that held them too.
 */
function withoutOwnFsync<T>(statements: LeaseStatements, transaction: () => T): T {
  if (!statements.syncsEveryCommit) return transaction();
  statements.normal.run();
  try {
    return transaction();
  } finally {
    statements.full.run();
  }
}

export interface SqliteLeaseStoreOptions {
  /** Epoch ms. Default `Date.now`: every process on one file shares the machine's clock. */
  now?: () => number;
  /** How positions order. Default: the SQLite event store's decimal positions. */
  comparePositions?: ComparePositions;
}

/**
 * The `LeaseStore` and `FencedCheckpointStore` ports on one SQLite connection (the event store's).
 * Every operation is one BEGIN IMMEDIATE transaction: replicas in other processes take turns.
 * Lease changes and fenced checkpoint writes skip their own fsync (they reach the disk with the next
 * synchronous commit); the connection keeps its durability for everything else.
 */
export class SqliteLeaseStore implements LeasesAndFencedCheckpoints {
  private readonly now: () => number;
  private readonly compare: ComparePositions;
  private readonly statements: LeaseStatements;
  private readonly transactions: ReturnType<SqliteLeaseStore['makeTransactions']>;

  constructor(
    private readonly db: Database,
    options: SqliteLeaseStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.compare = options.comparePositions ?? compareDecimalPositions;
    this.statements = statementsFor(db);
    this.transactions = this.makeTransactions();
  }

  async acquire(name: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    return withoutOwnFsync(this.statements, () => this.transactions.acquire.immediate(name, owner, ttlMs));
  }

  async renew(lease: Lease, ttlMs: number): Promise<Lease | undefined> {
    return withoutOwnFsync(this.statements, () => this.transactions.renew.immediate(lease, ttlMs));
  }

  async release(lease: Lease): Promise<void> {
    withoutOwnFsync(this.statements, () => this.transactions.release.immediate(lease));
  }

  async load(name: string): Promise<Position | undefined> {
    return readCheckpoint(this.db, name);
  }

  /**
   * Without its own fsync too: the work a checkpoint covers was durable before it moves, so power
   * loss that rolls the newest checkpoint back only has that work done again (at least once), and
   * the relay and outbox wrote one every 100 ms, each blocking the event loop for its flush.
   */
  async store(name: string, position: Position, token: number): Promise<void> {
    withoutOwnFsync(this.statements, () => this.transactions.store.immediate(name, position, token));
  }

  /** The transactions, made once (better-sqlite3 builds four wrappers per `transaction` call). */
  private makeTransactions() {
    const { read, write } = this.statements;
    return {
      acquire: this.db.transaction((name: string, owner: string, ttlMs: number): Lease | undefined => {
        const now = this.now();
        const row = read.get(name);
        if (row && row.owner !== owner && row.expires_at > now) return undefined;
        const lease = { name, owner, token: (row?.token ?? 0) + 1, expiresAt: now + ttlMs };
        write.run(name, owner, lease.token, lease.expiresAt);
        return lease;
      }),
      renew: this.db.transaction((lease: Lease, ttlMs: number): Lease | undefined => {
        const row = read.get(lease.name);
        // Expired but not taken (and not released) is still this owner's: nobody was granted a newer token.
        if (!row || row.token !== lease.token || row.owner !== lease.owner || row.expires_at === 0) return undefined;
        const renewed = { ...lease, expiresAt: this.now() + ttlMs };
        write.run(lease.name, lease.owner, lease.token, renewed.expiresAt);
        return renewed;
      }),
      release: this.db.transaction((lease: Lease) => {
        const row = read.get(lease.name);
        if (row?.token === lease.token) write.run(lease.name, lease.owner, lease.token, 0);
      }),
      store: this.db.transaction((name: string, position: Position, token: number) => {
        const newest = read.get(name)?.token;
        if (newest === undefined || newest > token) throw new FencedOutError(name, token, newest);
        // Inside this transaction the checkpoint write runs in a savepoint: check and write commit together.
        writeCheckpoint(this.db, name, position, this.compare);
      }),
    };
  }
}
