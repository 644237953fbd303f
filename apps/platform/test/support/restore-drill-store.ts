/**
 * The PostgreSQL half of the restore drill: an online `pg_dump` of the event store's schema, its
 * restore into a fresh database, and the comparison of the restored log with the log the platform
 * kept writing after the backup (what the restore lost, and proof that it lost nothing older).
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A libpq URL (no `?schema=`, which only reelstream reads) and the schema the store is in. */
interface StoreAt {
  database: string;
  schema: string;
}

function storeAt(eventStoreUrl: string): StoreAt {
  const url = new URL(eventStoreUrl);
  const schema = url.searchParams.get('schema') ?? 'public';
  url.search = '';
  return { database: url.toString(), schema };
}

async function withClient<T>(database: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The server's current snapshot (`xmin:xmax:xip`): which transactions had committed at that instant. */
const currentSnapshot = (database: string) =>
  withClient(database, async (client) => {
    const { rows } = await client.query<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot');
    return rows[0]?.snapshot ?? '';
  });

export interface Backup {
  file: string;
  bytes: number;
  ms: number;
  /** Snapshots taken just before pg_dump started and just after it ended: the dump's own lies between. */
  before: string;
  after: string;
}

/**
 * `pg_dump --format=custom --schema=…` while the platform writes: one REPEATABLE READ transaction,
 * so the copy is the log as one snapshot saw it, without stopping a writer.
 */
export async function dumpSchema(eventStoreUrl: string, file: string): Promise<Backup> {
  const { database, schema } = storeAt(eventStoreUrl);
  const before = await currentSnapshot(database);
  const started = performance.now();
  await run('pg_dump', ['--format=custom', `--schema=${schema}`, `--file=${file}`, `--dbname=${database}`]);
  const ms = performance.now() - started;
  const after = await currentSnapshot(database);
  return { file, bytes: statSync(file).size, ms, before, after };
}

export interface Restored {
  /** EVENT_STORE_URL of the restored store: a database of its own, the schema's name kept. */
  eventStoreUrl: string;
  ms: number;
  drop(): Promise<void>;
}

/** A fresh database on the same server, and `pg_restore` of the dump into it. */
export async function restoreIntoNewDatabase(eventStoreUrl: string, backup: Backup, name: string): Promise<Restored> {
  const { database, schema } = storeAt(eventStoreUrl);
  const restoredDatabase = new URL(database);
  restoredDatabase.pathname = `/${name}`;
  await withClient(database, (client) => client.query(`CREATE DATABASE ${name}`));
  const started = performance.now();
  await run('pg_restore', ['--exit-on-error', '--no-owner', `--dbname=${restoredDatabase.toString()}`, backup.file]);
  const ms = performance.now() - started;
  const restoredUrl = new URL(restoredDatabase);
  restoredUrl.searchParams.set('schema', schema);
  return {
    eventStoreUrl: restoredUrl.toString(),
    ms,
    drop: async () => {
      await withClient(database, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

interface StoredEvent {
  event_id: string;
  stream_id: string;
  revision: string;
  type: string;
  data: Record<string, unknown>;
  transaction_id: string;
}

const eventsOf = (eventStoreUrl: string) => {
  const { database, schema } = storeAt(eventStoreUrl);
  return withClient(database, async (client) => {
    const { rows } = await client.query<StoredEvent>(
      `SELECT event_id, stream_id, revision, type, data, transaction_id::text FROM ${schema}.es_events ORDER BY position`,
    );
    return rows;
  });
};

/** Which of `xids` a snapshot (`xmin:xmax:xip`) saw committed. */
const visibleIn = (database: string, snapshot: string, xids: readonly string[]) =>
  withClient(database, async (client) => {
    const { rows } = await client.query<{ xid: string }>(
      `SELECT xid::text FROM unnest($1::xid8[]) AS xid WHERE pg_visible_in_snapshot(xid, $2::pg_snapshot)`,
      [xids, snapshot],
    );
    return new Set(rows.map((row) => row.xid));
  });

export interface LogComparison {
  /** Events in the log the platform kept writing (what a store that survived would hold). */
  kept: number;
  restored: number;
  /** Events written after the backup's snapshot: kept, not restored. */
  lost: StoredEvent[];
  /** Every way the restored log is not exactly the kept log up to the backup; empty when it is. */
  problems: string[];
}

/**
 * The restored log against the kept one: every restored event is the kept event at that stream and
 * revision, every event committed before pg_dump started is restored, and none committed after it ended.
 */
export async function compareLogs(keptUrl: string, restoredUrl: string, backup: Backup): Promise<LogComparison> {
  const [kept, restored] = await Promise.all([eventsOf(keptUrl), eventsOf(restoredUrl)]);
  const problems: string[] = [];
  const keptById = new Map(kept.map((event) => [event.event_id, event]));
  const restoredIds = new Set(restored.map((event) => event.event_id));
  for (const event of restored) {
    const original = keptById.get(event.event_id);
    if (original?.stream_id !== event.stream_id || original.revision !== event.revision)
      problems.push(`restored event ${event.event_id} (${event.stream_id}@${event.revision}) is not the kept log's`);
  }
  const lost = kept.filter((event) => !restoredIds.has(event.event_id));
  const { database } = storeAt(keptUrl);
  const xids = [...new Set(kept.map((event) => event.transaction_id))];
  const [committedBefore, committedAfter] = await Promise.all([
    visibleIn(database, backup.before, xids),
    visibleIn(database, backup.after, xids),
  ]);
  for (const event of lost)
    if (committedBefore.has(event.transaction_id))
      problems.push(`lost ${event.type} ${event.stream_id}@${event.revision}, committed before the backup started`);
  for (const event of restored)
    if (!committedAfter.has(event.transaction_id))
      problems.push(`restored ${event.type} ${event.stream_id}@${event.revision}, committed after the backup ended`);
  return { kept: kept.length, restored: restored.length, lost, problems };
}

/** Every transactionId a set of events names (a round's bet and win, a free spin's win, a cancel). */
export function transactionIdsOf(events: readonly { data: Record<string, unknown> }[]): Set<number> {
  const ids = new Set<number>();
  for (const { data } of events)
    for (const [key, value] of Object.entries(data))
      if (/transactionId$/i.test(key) && typeof value === 'number') ids.add(value);
  return ids;
}
