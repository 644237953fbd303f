/**
 * `npm run bench:replay`: replays an embedded data file of >= 300,000 events into the reports
 * and compares the rate with raw better-sqlite3 reads of the same rows. REPLAY_BENCH_EVENTS is one
 * size or a list (`1000000,5000000`): each size gets its own file and figures.
 *
 * The file is written through the real SQLite event store (SqliteEventStore.append, every event
 * checked against its contract) by the analytics tests' synthetic workload: sessions, paid rounds
 * with bet/win transactions, retries, cancels, dead letters and free-spin bonus calls. The replay
 * is what `reelstream replay` runs (readAll pages → parse/upcast → fold); the raw read selects the
 * same columns of every row (as arrays, as the store reads them) in the same page size, without parsing. Target: replay >= 100,000 events/s.
 * Then `reelstream export` of the rounds and of the wallet transactions to Parquet, each in a process of
 * its own: events read per second, rows written, and its peak memory. Peak memory is measured as the
 * CLI runs (under its heap limit, src/heap-limit.ts in the CLI) beside V8's default heap, the baseline.
 *
 * With a PostgreSQL server (PG_URL, or the machine's at 127.0.0.1:5432), the same workload
 * (REPLAY_BENCH_PG_EVENTS events, 60,000 by default) is written through the PostgreSQL event store into
 * a schema of its own (dropped after), replayed from it as `reelstream replay --source postgres://…`
 * does, and compared with a raw `pg` read of the same rows in the same page size.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import {
  catalogFacts,
  DEFAULT_PAGE_SIZE,
  parseTimeArgument,
  replay,
  runExport,
} from '@reelstream/analytics-application';
import { AnalyticsFold, REPORT_NAMES, type ExportKind } from '@reelstream/analytics-domain';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { openReadOnlyEventStore, SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { openPostgresEventStore } from '@reelstream/platform-eventstore-postgres';
import type { EventStore } from '@reelstream/platform-ports';
import { postgresForTests, postgresNotice } from '@reelstream/testing/postgres';
import pg from 'pg';
import { DEFAULT_HEAP_MB } from '../apps/reelstream-cli/src/heap-limit.js';
import { writeSyntheticLog } from '../libs/analytics/application/test/synthetic-log.js';

const SIZES = (process.env['REPLAY_BENCH_EVENTS'] ?? '300000').split(',').map(Number);
/**
 * The PostgreSQL half's log: smaller by default, as every append there is a durable transaction of its
 * own and the workload appends one at a time (about 400 events/s on a busy 2-core machine).
 */
const POSTGRES_EVENTS = Number(process.env['REPLAY_BENCH_PG_EVENTS'] ?? Math.min(SIZES[0] ?? 0, 60_000));
/** The replay's own page size (what `reelstream replay` uses), for both reads. */
const PAGE = DEFAULT_PAGE_SIZE;
const RUNS = 3;
const operators = [
  { id: 'casino-seoul', currency: 'KRW', timeZone: 'Asia/Seoul' },
  { id: 'casino-eu', currency: 'EUR', timeZone: 'Europe/Berlin' },
  { id: 'casino-ny', currency: 'USD', timeZone: 'America/New_York' },
];

async function generate(path: string, target: number): Promise<number> {
  const store = SqliteEventStore.open(path, { synchronous: 'NORMAL' });
  const events = await writeWorkload(store, target);
  await store.close();
  return events;
}

/** The synthetic workload, `target` events or a little more, appended through `store`'s own append. */
async function writeWorkload(store: EventStore, target: number): Promise<number> {
  let events = 0;
  let batch = 0;
  // Each batch starts its ids and tokens where the last one stopped: no id is used twice.
  let first = { id: 1_000, session: 0 };
  const started = performance.now();
  while (events < target) {
    const written = await writeSyntheticLog(store, {
      operators,
      sessions: 500,
      roundsPerSession: 20,
      start: new Date(Date.parse('2026-11-01T00:00:00.000Z') + batch * 500 * 45_000).toISOString(),
      seed: ++batch,
      first,
    });
    first = written.next;
    events += written.events;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `generated ${events.toLocaleString('en')} events in ${seconds.toFixed(1)} s through ${store.constructor.name}.append`,
  );
  return events;
}

async function replayOnce(path: string): Promise<{ events: number; ms: number }> {
  // Opened as `reelstream replay` opens it: read-only.
  const store = openReadOnlyEventStore(path);
  try {
    return await replayFrom(store);
  } finally {
    await store.close();
  }
}

async function replayFrom(store: EventStore): Promise<{ events: number; ms: number }> {
  const catalog = catalogFacts(loadCatalogFile());
  const zones = new Map(operators.map((operator) => [operator.id, operator.timeZone]));
  const fold = new AnalyticsFold({ filter: {}, catalog, timeZoneOf: (id) => zones.get(id) ?? 'UTC' });
  const started = performance.now();
  const { events } = await replay({ store, fold, pageSize: PAGE });
  for (const name of REPORT_NAMES) fold.report(name);
  return { events, ms: performance.now() - started };
}

/** `reelstream export <kind> --format parquet` of the whole log, into `dir`. */
async function exportOnce(
  path: string,
  kind: ExportKind,
  dir: string,
): Promise<{ events: number; rows: number; ms: number }> {
  const store = openReadOnlyEventStore(path);
  const zones = new Map(operators.map((operator) => [operator.id, operator.timeZone]));
  const started = performance.now();
  const { events, rows } = await runExport({
    store,
    kind,
    format: 'parquet',
    out: join(dir, `${kind}.parquet`),
    timeZoneOf: (id) => zones.get(id) ?? 'UTC',
    parseTime: parseTimeArgument,
  });
  const ms = performance.now() - started;
  await store.close();
  return { events, rows, ms };
}

function rawOnce(path: string): { events: number; ms: number } {
  const db = new Database(path, { readonly: true });
  // Rows as arrays, as the store reads them.
  const page = db
    .prepare<[number, number], [number, ...unknown[]]>(
      'SELECT position, stream_id, revision, event_id, type, data, metadata, recorded_at FROM es_events WHERE position > ? ORDER BY position LIMIT ?',
    )
    .raw(true);
  const started = performance.now();
  let events = 0;
  let after = 0;
  for (;;) {
    const rows = page.all(after, PAGE);
    events += rows.length;
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE) break;
    after = last[0];
  }
  const ms = performance.now() - started;
  db.close();
  return { events, ms };
}

/**
 * One replay in a process of its own (this file run with REPLAY_BENCH_CHILD=<file>), whose peak
 * resident memory (getrusage maxRSS) is the replay's alone, not the generator's; with the CLI's
 * heap limit, or V8's default when `heap` is 'v8-default'.
 */
function inChild<Measured extends { events: number; ms: number; peakRssMb: number }>(
  path: string,
  task: 'replay' | ExportKind,
  heap: 'cli' | 'v8-default' = 'cli',
): Measured {
  const limit = heap === 'cli' ? [`--max-old-space-size=${DEFAULT_HEAP_MB}`] : [];
  const child = spawnSync(process.execPath, [...limit, ...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, REPLAY_BENCH_CHILD: path, REPLAY_BENCH_TASK: task },
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`${task} child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as Measured;
}

/** The same columns of every row of the PostgreSQL store, in position order and pages of PAGE, unparsed. */
async function rawPostgresOnce(url: string): Promise<{ events: number; ms: number }> {
  const connection = new URL(url);
  const schema = connection.searchParams.get('schema') ?? 'public';
  connection.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: connection.toString() });
  await client.connect();
  try {
    const started = performance.now();
    let events = 0;
    let after = '0';
    for (;;) {
      const { rows } = await client.query<[string, ...unknown[]]>({
        text: `SELECT position, stream_id, revision, event_id, type, data::text, metadata::text, recorded_at FROM ${schema}.es_events WHERE position > $1 ORDER BY position LIMIT $2`,
        values: [after, PAGE],
        rowMode: 'array',
      });
      events += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < PAGE) break;
      after = last[0];
    }
    return { events, ms: performance.now() - started };
  } finally {
    await client.end();
  }
}

/** The workload written through the PostgreSQL store into a schema of its own, replayed and read raw. */
async function onPostgres(): Promise<void> {
  const server = await postgresForTests();
  if (!server) {
    console.log(postgresNotice('the replay bench').trim());
    return;
  }
  const schema = await server.schema('replay_bench');
  try {
    const { store } = await openPostgresEventStore(schema.url);
    try {
      await writeWorkload(store, POSTGRES_EVENTS);
      const replays: { events: number; ms: number }[] = [];
      const raws: { events: number; ms: number }[] = [];
      for (let run = 0; run < RUNS; run++) {
        replays.push(await replayFrom(store));
        raws.push(await rawPostgresOnce(schema.url));
      }
      const replayed = best(replays);
      const raw = best(raws);
      console.log(
        `PostgreSQL at ${server.server}: replay ${replayed.events.toLocaleString('en')} events in ${replayed.ms.toFixed(0)} ms = ${Math.round(rate(replayed)).toLocaleString('en')} events/s; raw pg read ${raw.events.toLocaleString('en')} rows in ${raw.ms.toFixed(0)} ms = ${Math.round(rate(raw)).toLocaleString('en')} rows/s; replay/raw ${(rate(replayed) / rate(raw)).toFixed(3)}`,
      );
    } finally {
      await store.close();
    }
  } finally {
    await schema.drop();
  }
}

const rate = (m: { events: number; ms: number }) => (m.events * 1000) / m.ms;
const best = (runs: { events: number; ms: number }[]) => runs.reduce((a, b) => (rate(b) > rate(a) ? b : a));

const child = process.env['REPLAY_BENCH_CHILD'];
if (child !== undefined) {
  const task = process.env['REPLAY_BENCH_TASK'] ?? 'replay';
  const out = mkdtempSync(join(tmpdir(), 'reelstream-export-bench-'));
  try {
    const measured = task === 'replay' ? await replayOnce(child) : await exportOnce(child, task as ExportKind, out);
    console.log(JSON.stringify({ ...measured, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  process.exit(0);
}

const mb = (peak: number) => `${peak.toFixed(0)} MB`;

/** The figures of one size: the replay against the raw read, then the replay and exports' own processes. */
async function benchAt(path: string): Promise<void> {
  const replays: { events: number; ms: number }[] = [];
  const raws: { events: number; ms: number }[] = [];
  // Alternated, so both see the same machine load; the best of each is compared.
  for (let run = 0; run < RUNS; run++) {
    replays.push(await replayOnce(path));
    raws.push(rawOnce(path));
  }
  const replayed = best(replays);
  const raw = best(raws);
  console.log(
    `replay (readAll → parse → ${REPORT_NAMES.length} reports): ${replayed.events.toLocaleString('en')} events in ${replayed.ms.toFixed(0)} ms = ${Math.round(rate(replayed)).toLocaleString('en')} events/s`,
  );
  console.log(
    `raw better-sqlite3 read of the same rows:  ${raw.events.toLocaleString('en')} rows in ${raw.ms.toFixed(0)} ms = ${Math.round(rate(raw)).toLocaleString('en')} rows/s`,
  );
  console.log(
    `replay/raw: ${(rate(replayed) / rate(raw)).toFixed(3)}   target replay >= 100,000 events/s: ${rate(replayed) >= 100_000 ? 'met' : 'NOT met'}`,
  );
  const alone = inChild<{ events: number; ms: number; peakRssMb: number }>(path, 'replay');
  const unbounded = inChild<{ events: number; ms: number; peakRssMb: number }>(path, 'replay', 'v8-default');
  console.log(
    `replay in a process of its own, as the CLI runs it (heap limit ${DEFAULT_HEAP_MB} MB): ${alone.events.toLocaleString('en')} events in ${alone.ms.toFixed(0)} ms = ${Math.round(rate(alone)).toLocaleString('en')} events/s, peak memory (maxRSS) ${mb(alone.peakRssMb)}   target < 512 MB: ${alone.peakRssMb < 512 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `  baseline, V8's default heap: ${Math.round(rate(unbounded)).toLocaleString('en')} events/s, peak ${mb(unbounded.peakRssMb)}; the limit's peak ${(alone.peakRssMb / unbounded.peakRssMb).toFixed(2)}× and speed ${(rate(alone) / rate(unbounded)).toFixed(2)}× of it`,
  );
  for (const kind of ['rounds', 'transactions'] as const) {
    const exported = inChild<{ events: number; rows: number; ms: number; peakRssMb: number }>(path, kind);
    console.log(
      `export ${kind} to Parquet in a process of its own (heap limit ${DEFAULT_HEAP_MB} MB): ${exported.events.toLocaleString('en')} events read in ${exported.ms.toFixed(0)} ms = ${Math.round(rate(exported)).toLocaleString('en')} events/s, ${exported.rows.toLocaleString('en')} rows (${Math.round((exported.rows * 1000) / exported.ms).toLocaleString('en')} rows/s), peak memory (maxRSS) ${mb(exported.peakRssMb)}`,
    );
  }
}

// REPLAY_BENCH_DIR keeps the generated files (replay-<events>.db) and reuses them when they exist:
// a minute saved per 300,000 events when measuring a change to the replay alone.
const kept = process.env['REPLAY_BENCH_DIR'];
const dir = kept ?? mkdtempSync(join(tmpdir(), 'reelstream-replay-bench-'));
mkdirSync(dir, { recursive: true });
try {
  for (const size of SIZES) {
    const path = join(dir, `replay-${size}.db`);
    if (!existsSync(path)) await generate(path, size);
    console.log(`\n— a log written for ${size.toLocaleString('en')} events —`);
    await benchAt(path);
  }
} finally {
  if (kept === undefined) rmSync(dir, { recursive: true, force: true });
}
await onPostgres();
