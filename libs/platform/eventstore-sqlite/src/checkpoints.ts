import type { Database, Statement } from 'better-sqlite3';
import type { CheckpointStore, Position } from '@reelstream/platform-ports';
import { compareDecimalPositions } from './positions.js';

/**
 * Checkpoints live in `es_checkpoints` of any SQLite file: the event store's own, or a
 * projection's read-model file, so the projection can write its rows and its checkpoint in one
 * transaction (then a crash can never separate them).
 */
const CHECKPOINTS_DDL = `CREATE TABLE IF NOT EXISTS es_checkpoints (
  name       TEXT PRIMARY KEY,
  position   TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT`;

export type ComparePositions = (a: Position, b: Position) => number;

export function ensureCheckpointSchema(db: Database): void {
  db.exec(CHECKPOINTS_DDL);
}

interface CheckpointStatements {
  read: Statement<[string], string>;
  write: Statement<[string, string, string]>;
  /** read-compare-write as one unit: a transaction, or a savepoint inside the caller's. */
  advance: (name: string, position: Position, compare: ComparePositions) => boolean;
}

const statementsByDb = new WeakMap<Database, CheckpointStatements>();

function statementsFor(db: Database): CheckpointStatements {
  let statements = statementsByDb.get(db);
  if (!statements) {
    ensureCheckpointSchema(db);
    const read = db.prepare<[string], string>('SELECT position FROM es_checkpoints WHERE name = ?').pluck();
    const write = db.prepare<[string, string, string]>(
      `INSERT INTO es_checkpoints (name, position, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
    );
    const advance = db.transaction((name: string, position: Position, compare: ComparePositions): boolean => {
      const stored = read.get(name);
      if (stored !== undefined && compare(position, stored) <= 0) return false;
      write.run(name, position, new Date().toISOString());
      return true;
    });
    statements = { read, write, advance: (name, position, compare) => advance.immediate(name, position, compare) };
    statementsByDb.set(db, statements);
  }
  return statements;
}

export function readCheckpoint(db: Database, name: string): Position | undefined {
  return statementsFor(db).read.get(name);
}

/**
 * Moves the checkpoint `name` forward to `position`. Never moves it backwards: a late or repeated
 * write of an older position is ignored. Returns whether it moved. Safe inside the caller's own
 * transaction (it then runs in a savepoint) and against other processes (BEGIN IMMEDIATE).
 * `comparePositions` is the order of the store the positions come from (no default: a projection
 * file may hold EventStoreDB positions, which decimal order refuses).
 */
export function writeCheckpoint(
  db: Database,
  name: string,
  position: Position,
  comparePositions: ComparePositions,
): boolean {
  return statementsFor(db).advance(name, position, comparePositions);
}

export interface SqliteCheckpointStoreOptions {
  /** How positions order. Default: non-negative decimal strings (the SQLite event store's). */
  comparePositions?: ComparePositions;
}

/** The `CheckpointStore` port on `es_checkpoints` of the given SQLite connection. */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly compare: ComparePositions;

  constructor(
    private readonly db: Database,
    options: SqliteCheckpointStoreOptions = {},
  ) {
    this.compare = options.comparePositions ?? compareDecimalPositions;
    statementsFor(db);
  }

  async load(name: string): Promise<Position | undefined> {
    return readCheckpoint(this.db, name);
  }

  async store(name: string, position: Position): Promise<void> {
    writeCheckpoint(this.db, name, position, this.compare);
  }
}
