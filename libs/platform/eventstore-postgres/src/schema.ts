import type pg from 'pg';
import { ReelstreamError } from '@reelstream/contracts';

/**
 * The tables of the PostgreSQL store, in the URL's schema.
 *
 * - `position` numbers events in insertion order, `transaction_id` is the writing transaction's id
 *   (`pg_current_xact_id()`): together they are the global order, `(transaction_id, position)`,
 *   and readers of $all only read transactions below the oldest one still running
 *   (docs/adr/0018-postgres-event-store-positions.md).
 * - UNIQUE(stream_id, revision) serves stream reads and "last revision of a stream"; appends to one
 *   stream take turns on a transaction-scoped advisory lock of the stream id.
 * - `event_id` is unique in the whole store, as in the SQLite store.
 * - `category` is the stream id up to its first '-': with the order it turns a prefix-filtered
 *   read of $all into a range scan of one category.
 */
const DDL = (schema: string) => `
CREATE SCHEMA IF NOT EXISTS ${schema};
CREATE TABLE IF NOT EXISTS ${schema}.es_events (
  position       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id xid8        NOT NULL DEFAULT pg_current_xact_id(),
  stream_id      text        NOT NULL,
  revision       bigint      NOT NULL,
  event_id       uuid        NOT NULL UNIQUE,
  type           text        NOT NULL,
  data           jsonb       NOT NULL,
  metadata       jsonb       NOT NULL,
  recorded_at    timestamptz NOT NULL DEFAULT now(),
  category       text        NOT NULL,
  UNIQUE (stream_id, revision)
);
CREATE INDEX IF NOT EXISTS es_events_in_order ON ${schema}.es_events (transaction_id, position);
CREATE INDEX IF NOT EXISTS es_events_by_category ON ${schema}.es_events (category, transaction_id, position);
CREATE TABLE IF NOT EXISTS ${schema}.es_checkpoints (
  name           text        PRIMARY KEY,
  transaction_id xid8        NOT NULL,
  position       bigint      NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS ${schema}.es_leases (
  name       text   PRIMARY KEY,
  owner      text   NOT NULL,
  token      bigint NOT NULL,
  expires_at bigint NOT NULL
);
`;

/**
 * The store's tables, each named with its schema: no statement depends on a connection's
 * `search_path`, which a pooler in transaction mode (PgBouncer) does not keep for a client.
 */
export interface Tables {
  readonly events: string;
  readonly checkpoints: string;
  readonly leases: string;
}

export function tablesIn(schema: string): Tables {
  return { events: `${schema}.es_events`, checkpoints: `${schema}.es_checkpoints`, leases: `${schema}.es_leases` };
}

/** Any 64-bit key: the advisory lock under which processes opening one database create its tables in turn. */
const SCHEMA_LOCK = 0x7265656c;

/** The tables and indexes of DDL, by name. */
const SCHEMA_OBJECTS = ['es_events', 'es_events_in_order', 'es_events_by_category', 'es_checkpoints', 'es_leases'];

/**
 * Creates the schema and tables when missing; several processes may start at once, so they take turns.
 * When every table and index is there it runs no DDL at all: PostgreSQL checks the privilege to create
 * before `IF NOT EXISTS`, so a role that may only read (the analysts' reports) could not open the store.
 */
export async function ensureSchema(client: pg.ClientBase, schema: string): Promise<void> {
  const { rows } = await client.query<{ present: number }>(
    `SELECT count(*)::int AS present FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = ANY($2)`,
    [schema, SCHEMA_OBJECTS],
  );
  if (rows[0]?.present === SCHEMA_OBJECTS.length) return;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    await client.query(DDL(schema));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Not retriable: the server's transaction counter stays behind until an operator moves it.
 * `epoch` is the transaction id epoch that puts it past the newest stored event: a 64-bit id is
 * the epoch times 2^32 plus the 32-bit id, and `pg_resetwal --epoch` sets the epoch of a stopped
 * server without touching the 32-bit ids its data files hold.
 */
export class TransactionIdsBehindError extends ReelstreamError {
  override readonly name = 'TransactionIdsBehindError';
  readonly epoch: bigint;

  constructor(
    readonly next: bigint,
    readonly newest: bigint,
  ) {
    const epoch = epochPast(newest);
    super('INTERNAL', behindMessage(next, newest, epoch), { retriable: false });
    this.epoch = epoch;
  }
}

function behindMessage(next: bigint, newest: bigint, epoch: bigint): string {
  return (
    `the server's next transaction id ${next} is not past the newest stored event's ${newest}: ` +
    'the events were copied from another server (a logical dump?); new events would sort before them. ' +
    `Stop this server and run \`pg_resetwal --epoch=${epoch} --pgdata=<its data directory>\`, then start it again`
  );
}

/** The first transaction id epoch whose ids are all greater than `id`. */
function epochPast(id: bigint): bigint {
  return (id >> 32n) + 1n;
}

/**
 * Refuses a server whose next transaction id is not past the newest stored event's: its new events
 * would sort before old ones and every subscriber past those would skip them. It happens when the
 * events were copied into another server by a logical dump (a physical backup or pg_upgrade keeps
 * the counter).
 */
export async function assertTransactionIdsAhead(client: pg.ClientBase, tables: Tables): Promise<void> {
  const { rows } = await client.query<{ next: string; newest: string | null }>(
    `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next,
            (SELECT transaction_id FROM ${tables.events} ORDER BY transaction_id DESC LIMIT 1)::text AS newest`,
  );
  const row = rows[0];
  if (row?.newest != null && BigInt(row.next) <= BigInt(row.newest))
    throw new TransactionIdsBehindError(BigInt(row.next), BigInt(row.newest));
}
