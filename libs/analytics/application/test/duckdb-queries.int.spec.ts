/**
 * The DuckDB queries the analyst guide prints ("Queries over the files"), run as written by DuckDB
 * itself (@duckdb/node-api) over files `reelstream export` wrote from a synthetic log, laid out as the
 * guide names them (`bi/rounds/*.parquet`, `bi/transactions.csv`): each query runs, and its figures
 * are the reports' figures of the same log — the GGR of paid rounds is game performance's, the money
 * the wallet applied is the agent report's, the wallet-health shares cover every transaction row.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { AnalyticsFold, type ExportKind } from '@reelstream/analytics-domain';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { parseTimeArgument, replay, runExport, type ExportFormat } from '../src/index.js';
import { writeSyntheticLog, type SyntheticOperator } from './synthetic-log.js';

const GUIDE = fileURLToPath(new URL('../../../../docs/analyst-guide.md', import.meta.url));
const operators: SyntheticOperator[] = [
  { id: 'casino-seoul', currency: 'KRW', timeZone: 'Asia/Seoul' },
  { id: 'casino-eu', currency: 'EUR', timeZone: 'Europe/Berlin' },
];
const timeZoneOf = (id: string) => operators.find((operator) => operator.id === id)?.timeZone ?? 'UTC';
const dir = mkdtempSync(join(tmpdir(), 'reelstream-duckdb-'));
let store: SqliteEventStore;
let duck: DuckDBConnection;
let fold: AnalyticsFold;

type Row = Record<string, unknown>;

/** The statements of the SQL block after the guide's "Queries over the files" paragraph, in order. */
function guideQueries(): string[] {
  const guide = readFileSync(GUIDE, 'utf8');
  const at = guide.indexOf('**Queries over the files**');
  if (at < 0) throw new Error('the analyst guide has no "Queries over the files" paragraph');
  const block = /```sql\n([\s\S]*?)```/.exec(guide.slice(at))?.[1] ?? '';
  // A comment line may hold a `;`: the comments go before the block is split into statements.
  return block
    .replace(/^\s*--.*$/gm, '')
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

async function rowsOf(sql: string): Promise<Row[]> {
  const reader = await duck.runAndReadAll(sql);
  return reader.getRowObjectsJS() as Row[];
}

async function exportTo(kind: ExportKind, format: ExportFormat, out: string): Promise<void> {
  await runExport({ store, kind, format, out, timeZoneOf, parseTime: parseTimeArgument });
}

beforeAll(async () => {
  store = SqliteEventStore.open(join(dir, 'reelstream.db'), { synchronous: 'NORMAL' });
  await writeSyntheticLog(store, {
    operators,
    sessions: 60,
    roundsPerSession: 5,
    concurrency: 4,
    start: '2026-11-20T14:30:00.000Z',
  });
  mkdirSync(join(dir, 'bi', 'rounds'), { recursive: true });
  await exportTo('rounds', 'parquet', `${join(dir, 'bi', 'rounds')}/`);
  await exportTo('transactions', 'csv', join(dir, 'bi', 'transactions.csv'));
  fold = new AnalyticsFold({ filter: {}, catalog: new Map(), timeZoneOf });
  await replay({ store, fold });
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  // The guide's paths are relative to where the files were written.
  await duck.run(`SET file_search_path = '${dir.replaceAll("'", "''")}'`);
}, 60_000);

afterAll(async () => {
  duck?.closeSync();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sums per operator and currency of the named columns (the guide's queries are per day; the reports' days are the operator's). */
function totals(rows: Row[], columns: string[]): Record<string, number[]> {
  const sums: Record<string, number[]> = {};
  for (const row of rows) {
    const key = `${String(row['operatorId'])}|${String(row['currency'])}`;
    const sum = (sums[key] ??= columns.map(() => 0));
    columns.forEach((column, index) => {
      sum[index] = Math.round(((sum[index] ?? 0) + Number(row[column] ?? 0)) * 100) / 100;
    });
  }
  return sums;
}

describe("the analyst guide's DuckDB queries", () => {
  it('are three statements, each reading the exported files', () => {
    const queries = guideQueries();
    expect(queries).toHaveLength(3);
    expect(queries.map((query) => /FROM '(bi\/[^']+)'/.exec(query)?.[1])).toEqual([
      'bi/rounds/*.parquet',
      'bi/transactions.csv',
      'bi/transactions.csv',
    ]);
  });

  it("give game performance's turnover and wins of the paid rounds, per operator and currency", async () => {
    const [ggr] = guideQueries();
    const rows = await rowsOf(ggr ?? '');
    // The log spans under an hour of one UTC day: a row per operator.
    expect(rows.length).toBe(2);
    for (const row of rows) expect(Number(row['ggr'])).toBeCloseTo(Number(row['bets']) - Number(row['wins']), 6);
    const byCurrency = (currency: string) => {
      const performance = fold.report('game-performance').rows.filter((row) => row.segment === 'standard');
      const of = performance.filter((row) => row.currency === currency);
      const exponent = currency === 'KRW' ? 0 : 2;
      const units = (minor: number) => minor / 10 ** exponent;
      return [
        units(of.reduce((sum, row) => sum + row.turnoverMinor, 0)),
        units(of.reduce((sum, row) => sum + row.winsMinor, 0)),
      ];
    };
    const sums = totals(rows, ['bets', 'wins']);
    expect(sums).toEqual({
      'casino-seoul|KRW': byCurrency('KRW'),
      'casino-eu|EUR': byCurrency('EUR'),
    });
  });

  it("give the agent report's bets and wins, from what the wallet applied", async () => {
    const [, applied] = guideQueries();
    const rows = await rowsOf(applied ?? '');
    const agent = fold.report('agent').rows;
    const expected: Record<string, number[]> = {};
    for (const row of agent) {
      const key = `${row.operatorId}|${row.currency}`;
      const exponent = row.currency === 'KRW' ? 0 : 2;
      const sum = (expected[key] ??= [0, 0]);
      sum[0] = Math.round(((sum[0] ?? 0) + row.betsMinor / 10 ** exponent) * 100) / 100;
      sum[1] = Math.round(((sum[1] ?? 0) + row.winsMinor / 10 ** exponent) * 100) / 100;
    }
    expect(Object.keys(expected).length).toBe(2);
    expect(totals(rows, ['bets', 'wins'])).toEqual(expected);
  });

  it('give the wallet-health shares over every transaction row', async () => {
    const [, , health] = guideQueries();
    const rows = await rowsOf(health ?? '');
    const [{ count } = { count: 0 }] = await rowsOf(`SELECT count(*) AS count FROM 'bi/transactions.csv'`);
    expect(rows.reduce((sum, row) => sum + Number(row['transactions']), 0)).toBe(Number(count));
    expect(new Set(rows.map((row) => row['command']))).toEqual(new Set(['bet', 'win', 'cancel']));
    for (const row of rows) {
      expect(Number(row['retried'])).toBeGreaterThanOrEqual(0);
      expect(Number(row['not_applied'])).toBeLessThanOrEqual(1);
    }
    // The synthetic log retries some and leaves some unanswered: the shares are not all zero.
    expect(rows.some((row) => Number(row['retried']) > 0)).toBe(true);
    expect(rows.some((row) => Number(row['not_applied']) > 0)).toBe(true);
  });
});
