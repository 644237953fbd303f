/**
 * `npm run bench:store`: durable appends/s of the embedded event store against raw better-sqlite3
 * inserts with the same durability (WAL, synchronous=FULL) and the same batching.
 *
 * The adapter's figure comes from 50 concurrent writers, each appending one event at a time to its
 * own stream with an exact expected revision; group commit turns them into batches. The raw
 * figure inserts equivalent rows (same columns, same JSON, a fresh UUID each) with one prepared
 * INSERT, N rows per transaction, N being the batch size the adapter achieved. Rounds alternate so
 * both see the same machine load and similar table sizes. Goal: adapter/raw >= 0.60. Each row
 * also shows this process's CPU time per durable event, the steadier figure on a shared machine.
 * Then the same writers on the PostgreSQL event store beside raw INSERTs (bench/postgres-store.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteEventStore, TimeOrderedUuids } from '@reelstream/platform-eventstore-sqlite';
import type { ExpectedRevision } from '@reelstream/platform-ports';
import { benchPostgresStore } from './postgres-store.js';

const WRITERS = 50;
const ROUNDS = 4;
const ROUND_MS = 1_000;
const SINGLE_WRITER_MS = 1_500;

const data = (i: number) => ({
  bet: 100,
  win: 250,
  currency: 'EUR',
  roundId: 9_007_000_000_000 + i,
  reels: [3, 7, 1, 4, 4],
});
const metadata = {
  correlationId: '6f1c2a4e-5d2b-4f7a-9c3e-1b2a3c4d5e6f',
  occurredAt: '2026-01-01T00:00:00.000Z',
  schemaVersion: 1,
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
};

const rawColumns = `position INTEGER PRIMARY KEY, stream_id TEXT NOT NULL, revision INTEGER NOT NULL, event_id TEXT NOT NULL,
  type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL, category TEXT NOT NULL`;

interface Measure {
  operations: number;
  ms: number;
  /** CPU time (user + system) of this process over the measure: steadier than throughput on a shared machine. */
  cpuMs: number;
}

async function timed(run: () => Promise<Omit<Measure, 'cpuMs'>> | Omit<Measure, 'cpuMs'>): Promise<Measure> {
  const cpu = process.cpuUsage();
  const measure = await run();
  const used = process.cpuUsage(cpu);
  return { ...measure, cpuMs: (used.user + used.system) / 1_000 };
}
const perSecond = (m: Measure) => (m.operations * 1000) / m.ms;

async function adapterRound(
  store: SqliteEventStore,
  writers: number,
  ms: number,
  revisions: ExpectedRevision[],
  /** Each event with a random id of the caller's, as the command handler appends (hashed ids): else the store draws one. */
  callerIds = false,
): Promise<Omit<Measure, 'cpuMs'>> {
  const start = performance.now();
  let operations = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      while (performance.now() - start < ms) {
        const result = await store.append(
          `bench-w${writer}`,
          [
            {
              ...(callerIds ? { eventId: randomUUID() } : {}),
              type: 'SlotSpun',
              data: data(operations),
              metadata,
            },
          ],
          {
            expectedRevision: revisions[writer] ?? 'no_stream',
          },
        );
        revisions[writer] = result.nextExpectedRevision;
        operations += 1;
      }
    }),
  );
  return { operations, ms: performance.now() - start };
}

function openRaw(
  path: string,
  withIndexes: boolean,
  eventId: () => string,
): (rowsPerTransaction: number, ms: number) => Omit<Measure, 'cpuMs'> {
  const db = new Database(path);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    withIndexes
      ? `CREATE TABLE raw (${rawColumns}, UNIQUE (event_id), UNIQUE (stream_id, revision)) STRICT;
         CREATE INDEX raw_by_category ON raw (category, position);`
      : `CREATE TABLE raw (${rawColumns}) STRICT;`,
  );
  const insert = db.prepare(
    'INSERT INTO raw (stream_id, revision, event_id, type, data, metadata, recorded_at, category) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const revisions = new Array<number>(WRITERS).fill(0);
  let counter = 0;
  const transaction = db.transaction((rows: number) => {
    const recordedAt = new Date().toISOString();
    for (let i = 0; i < rows; i++) {
      const writer = counter++ % WRITERS;
      const revision = revisions[writer] ?? 0;
      revisions[writer] = revision + 1;
      insert.run(
        `raw-w${writer}`,
        revision,
        eventId(),
        'SlotSpun',
        JSON.stringify(data(counter)),
        JSON.stringify(metadata),
        recordedAt,
        'raw-',
      );
    }
  });
  return (rowsPerTransaction, ms) => {
    const start = performance.now();
    let operations = 0;
    while (performance.now() - start < ms) {
      transaction(rowsPerTransaction);
      operations += rowsPerTransaction;
    }
    return { operations, ms: performance.now() - start };
  };
}

const sum = (measures: Measure[]): Measure =>
  measures.reduce((a, b) => ({ operations: a.operations + b.operations, ms: a.ms + b.ms, cpuMs: a.cpuMs + b.cpuMs }));
const cpuPerOperation = (m: Measure) => `${((m.cpuMs * 1_000) / m.operations).toFixed(1)} µs CPU`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'reelstream-bench-store-'));
  try {
    const store = SqliteEventStore.open(join(dir, 'events.db'), { synchronous: 'FULL' });
    const timeOrdered = new TimeOrderedUuids();
    const nextId = () => timeOrdered.next();
    const rawSameSchema = openRaw(join(dir, 'raw-indexed.db'), true, nextId);
    const rawRandomIds = openRaw(join(dir, 'raw-random-ids.db'), true, randomUUID);
    const rawBare = openRaw(join(dir, 'raw-bare.db'), false, nextId);
    const revisions: ExpectedRevision[] = [];
    const callerIdStore = SqliteEventStore.open(join(dir, 'caller-ids.db'), { synchronous: 'FULL' });
    const callerIdRevisions: ExpectedRevision[] = [];

    // Warm-up: creates the streams, fills caches, and gives a first batch size.
    const warmStats = store.commitStats;
    await adapterRound(store, WRITERS, 300, revisions);
    await adapterRound(callerIdStore, WRITERS, 300, callerIdRevisions, true);
    let batch = Math.max(
      1,
      Math.round(
        (store.commitStats.appends - warmStats.appends) / (store.commitStats.transactions - warmStats.transactions),
      ),
    );
    rawSameSchema(batch, 300);
    rawRandomIds(batch, 300);
    rawBare(batch, 300);

    const adapter: Measure[] = [];
    const raw: Measure[] = [];
    const bare: Measure[] = [];
    const randomIds: Measure[] = [];
    const withCallerIds: Measure[] = [];
    const before = store.commitStats;
    for (let round = 0; round < ROUNDS; round++) {
      adapter.push(await timed(() => adapterRound(store, WRITERS, ROUND_MS, revisions)));
      withCallerIds.push(await timed(() => adapterRound(callerIdStore, WRITERS, ROUND_MS, callerIdRevisions, true)));
      const stats = store.commitStats;
      batch = Math.max(1, Math.round((stats.appends - before.appends) / (stats.transactions - before.transactions)));
      raw.push(await timed(() => rawSameSchema(batch, ROUND_MS)));
      randomIds.push(await timed(() => rawRandomIds(batch, ROUND_MS)));
      bare.push(await timed(() => rawBare(batch, ROUND_MS)));
    }
    const after = store.commitStats;
    const averageBatch = (after.appends - before.appends) / (after.transactions - before.transactions);

    const singleStore = SqliteEventStore.open(join(dir, 'single.db'), { synchronous: 'FULL' });
    const single = await timed(() => adapterRound(singleStore, 1, SINGLE_WRITER_MS, []));
    const singleStats = singleStore.commitStats;
    await singleStore.close();
    await store.close();
    await callerIdStore.close();

    const adapterRate = perSecond(sum(adapter));
    const rawRate = perSecond(sum(raw));
    const bareRate = perSecond(sum(bare));
    const randomIdsMeasure = sum(randomIds);
    const rows: [string, string, string, string][] = [
      [
        `adapter, ${WRITERS} concurrent writers (1 event per append)`,
        fmt(adapterRate),
        cpuPerOperation(sum(adapter)),
        `${averageBatch.toFixed(1)} appends/commit`,
      ],
      [
        `adapter, ${WRITERS} writers, random ids of the caller's (as the command handler's)`,
        fmt(perSecond(sum(withCallerIds))),
        cpuPerOperation(sum(withCallerIds)),
        'as above',
      ],
      [
        `raw INSERT, same table and indexes, ${batch} rows/tx`,
        fmt(rawRate),
        cpuPerOperation(sum(raw)),
        `${batch} rows/commit`,
      ],
      [
        `raw INSERT, same table and indexes, random UUIDs, ${batch} rows/tx`,
        fmt(perSecond(randomIdsMeasure)),
        cpuPerOperation(randomIdsMeasure),
        `${batch} rows/commit`,
      ],
      [
        `raw INSERT, bare table (no secondary index), ${batch} rows/tx`,
        fmt(bareRate),
        cpuPerOperation(sum(bare)),
        `${batch} rows/commit`,
      ],
      [
        'adapter, 1 writer',
        fmt(perSecond(single)),
        cpuPerOperation(single),
        `${(singleStats.appends / singleStats.transactions).toFixed(1)} appends/commit`,
      ],
    ];
    const width = [Math.max(...rows.map((r) => r[0].length)), 12, 14, 22];
    const line = (cells: string[]) =>
      `| ${cells.map((c, i) => (i === 1 || i === 2 ? c.padStart(width[i] ?? 0) : c.padEnd(width[i] ?? 0))).join(' | ')} |`;
    console.log(
      `event store bench: SQLite ${String(new Database(':memory:').prepare('SELECT sqlite_version()').pluck().get())}, WAL, synchronous=FULL, ${ROUNDS} alternating rounds of ${ROUND_MS} ms`,
    );
    console.log(line(['what', 'durable/s', 'per operation', 'batching']));
    console.log(line(width.map((w) => '-'.repeat(w))));
    for (const row of rows) console.log(line(row));
    console.log(`ratio adapter / raw (same table and indexes): ${(adapterRate / rawRate).toFixed(2)} (goal >= 0.60)`);
    console.log(
      `ratio adapter / raw (bare table):             ${(adapterRate / bareRate).toFixed(2)} (what the indexes cost is in this one)`,
    );
    console.log(
      `ratio adapter with the caller's random ids / raw (bare table): ${(perSecond(sum(withCallerIds)) / bareRate).toFixed(2)} (the platform's appends: the command handler passes hashed ids)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await benchPostgresStore(WRITERS, ROUNDS, ROUND_MS);
}

await main();
