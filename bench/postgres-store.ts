/**
 * The PostgreSQL half of `npm run bench:store`: durable appends/s of the PostgreSQL event store
 * against raw `pg` INSERTs of the same rows into a table with the same columns and indexes, each
 * row its own transaction (as each append is), from the same number of concurrent callers over a
 * pool of the same size. Rounds alternate, as in the SQLite half. Runs against `PG_URL` or the
 * machine's server, in a schema of its own that it drops; says so and skips without one.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresEventStore } from '@reelstream/platform-eventstore-postgres';
import type { ExpectedRevision } from '@reelstream/platform-ports';
import { postgresForTests } from '@reelstream/testing/postgres';

interface Round {
  operations: number;
  ms: number;
}

const eventData = (i: number) => ({ bet: 100, win: 250, currency: 'EUR', roundId: 9_007_000_000_000 + i });
const eventMetadata = { correlationId: '6f1c2a4e-5d2b-4f7a-9c3e-1b2a3c4d5e6f', schemaVersion: 1 };

async function adapterRound(
  store: PostgresEventStore,
  writers: number,
  ms: number,
  revisions: ExpectedRevision[],
  streams = 'bench',
) {
  const start = performance.now();
  let operations = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      while (performance.now() - start < ms) {
        const result = await store.append(
          `${streams}-w${writer}`,
          [{ type: 'SlotSpun', data: eventData(operations), metadata: eventMetadata }],
          { expectedRevision: revisions[writer] ?? 'no_stream' },
        );
        revisions[writer] = result.nextExpectedRevision;
        operations += 1;
      }
    }),
  );
  return { operations, ms: performance.now() - start };
}

async function rawRound(pool: pg.Pool, writers: number, ms: number, revisions: number[]): Promise<Round> {
  const start = performance.now();
  let operations = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      while (performance.now() - start < ms) {
        const revision = revisions[writer] ?? 0;
        revisions[writer] = revision + 1;
        await pool.query(
          `INSERT INTO raw_events (stream_id, revision, event_id, type, data, metadata, category)
           VALUES ($1, $2, $3, 'SlotSpun', $4, $5, 'raw-')`,
          [
            `raw-w${writer}`,
            revision,
            randomUUID(),
            JSON.stringify(eventData(operations)),
            JSON.stringify(eventMetadata),
          ],
        );
        operations += 1;
      }
    }),
  );
  return { operations, ms: performance.now() - start };
}

const rate = (rounds: Round[]) =>
  (rounds.reduce((n, r) => n + r.operations, 0) * 1000) / rounds.reduce((n, r) => n + r.ms, 0);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Prints the PostgreSQL rows of the store bench; `writers`, `rounds` and `roundMs` as in the SQLite half. */
export async function benchPostgresStore(writers: number, rounds: number, roundMs: number): Promise<void> {
  const server = await postgresForTests();
  if (!server) {
    console.log('PostgreSQL: NOT measured, no server answers at 127.0.0.1:5432 and PG_URL is not set');
    return;
  }
  const { url, drop } = await server.schema('bench_store');
  const store = await PostgresEventStore.open(url);
  const pool = new pg.Pool({
    connectionString: store.url.connectionString,
    max: store.url.poolSize,
    options: `-c search_path=${store.url.schema}`,
  });
  try {
    await pool.query(`CREATE TABLE raw_events (LIKE es_events INCLUDING ALL)`);
    const { rows } = await pool.query<{ version: string; sync: string }>(
      "SELECT current_setting('server_version') AS version, current_setting('synchronous_commit') AS sync",
    );
    const revisions: ExpectedRevision[] = [];
    const rawRevisions: number[] = [];
    await adapterRound(store, writers, 300, revisions);
    await rawRound(pool, writers, 300, rawRevisions);
    const adapter: Round[] = [];
    const raw: Round[] = [];
    for (let round = 0; round < rounds; round++) {
      adapter.push(await adapterRound(store, writers, roundMs, revisions));
      raw.push(await rawRound(pool, writers, roundMs, rawRevisions));
    }
    const single = await adapterRound(store, 1, roundMs, [], 'single');
    console.log(
      `\nPostgreSQL ${rows[0]?.version ?? '?'}, synchronous_commit=${rows[0]?.sync ?? '?'}, pool of ${store.url.poolSize} connections, ${rounds} alternating rounds of ${roundMs} ms`,
    );
    console.log(`| adapter, ${writers} concurrent writers (1 event per append) | ${fmt(rate(adapter))} durable/s |`);
    console.log(`| raw INSERT, same table and indexes, 1 row per transaction  | ${fmt(rate(raw))} durable/s |`);
    console.log(`| adapter, 1 writer                                          | ${fmt(rate([single]))} durable/s |`);
    console.log(
      `ratio PostgreSQL adapter / raw INSERT: ${(rate(adapter) / rate(raw)).toFixed(2)} (the adapter's lock, revision check and notification per append)`,
    );
  } finally {
    await pool.end();
    await store.close();
    await drop();
  }
}
