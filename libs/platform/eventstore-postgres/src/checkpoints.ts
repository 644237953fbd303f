import type pg from 'pg';
import type { CheckpointStore, Position } from '@reelstream/platform-ports';
import { formatPostgresPosition, parsePostgresPosition } from './positions.js';
import { reaching } from './errors.js';
import type { Tables } from './schema.js';

/** Executes a query: the pool, or one connection inside the caller's transaction. */
type Queryable = Pick<pg.ClientBase, 'query'>;

export async function readCheckpoint(db: Queryable, tables: Tables, name: string): Promise<Position | undefined> {
  const { rows } = await db.query<{ t: string; p: string }>(
    `SELECT transaction_id::text AS t, position::text AS p FROM ${tables.checkpoints} WHERE name = $1`,
    [name],
  );
  const row = rows[0];
  return row ? formatPostgresPosition(row.t, row.p) : undefined;
}

/**
 * Moves the checkpoint `name` forward to `position` in one statement; a late or repeated write of
 * an older position changes nothing. Returns whether it moved.
 */
export async function writeCheckpoint(
  db: Queryable,
  tables: Tables,
  name: string,
  position: Position,
): Promise<boolean> {
  const { transactionId, sequence } = parsePostgresPosition(position);
  const { rowCount } = await db.query(
    `INSERT INTO ${tables.checkpoints} (name, transaction_id, position) VALUES ($1, $2::xid8, $3)
     ON CONFLICT (name) DO UPDATE SET transaction_id = excluded.transaction_id, position = excluded.position, updated_at = now()
     WHERE (es_checkpoints.transaction_id, es_checkpoints.position) < (excluded.transaction_id, excluded.position)`,
    [name, String(transactionId), String(sequence)],
  );
  return (rowCount ?? 0) > 0;
}

/** The `CheckpointStore` port on `es_checkpoints`, in the event store's database and schema. */
export class PostgresCheckpointStore implements CheckpointStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly tables: Tables,
    /** The server, for the error of a lost connection. */
    private readonly address: string,
  ) {}

  load(name: string): Promise<Position | undefined> {
    return reaching(this.address, () => readCheckpoint(this.pool, this.tables, name));
  }

  async store(name: string, position: Position): Promise<void> {
    await reaching(this.address, () => writeCheckpoint(this.pool, this.tables, name, position));
  }
}
