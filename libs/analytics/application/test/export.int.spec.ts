/**
 * `reelstream export` over a synthetic log: the Parquet file reads back (hyparquet) to the same rows
 * as the CSV, and the rows add up to what the reports of the same log say (transactions to the
 * agent report, rounds to game performance, bonus calls to bonus outcomes); a checkpoint makes a
 * second run over a grown log write exactly the new rows, and a re-run of a window nothing twice.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AnalyticsFold, OperatorDays, type ExportKind } from '@reelstream/analytics-domain';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import {
  ExportArgumentError,
  parseTimeArgument,
  readCheckpoint,
  replay,
  runExport,
  type ExportFormat,
} from '../src/index.js';
import { writeSyntheticLog, type SyntheticOperator } from './synthetic-log.js';

const operators: SyntheticOperator[] = [
  { id: 'casino-seoul', currency: 'KRW', timeZone: 'Asia/Seoul' },
  { id: 'casino-eu', currency: 'EUR', timeZone: 'Europe/Berlin' },
];
const timeZoneOf = (id: string) => operators.find((operator) => operator.id === id)?.timeZone ?? 'UTC';
const dir = mkdtempSync(join(tmpdir(), 'reelstream-export-'));
const dbPath = join(dir, 'reelstream.db');
let store: SqliteEventStore;
let next: { id: number; session: number };

type Row = Record<string, unknown>;

beforeAll(async () => {
  store = SqliteEventStore.open(dbPath, { synchronous: 'NORMAL' });
  // Sessions 45 s apart from 14:30 UTC: the log crosses midnight in Seoul.
  const written = await writeSyntheticLog(store, {
    operators,
    sessions: 60,
    roundsPerSession: 5,
    concurrency: 4,
    start: '2026-11-20T14:30:00.000Z',
  });
  next = written.next;
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function exported(
  kind: ExportKind,
  format: ExportFormat,
  out: string,
  window: { from?: string; to?: string; checkpoint?: string } = {},
) {
  const time = (option: string, text: string | undefined) =>
    text === undefined ? undefined : { text, time: parseTimeArgument(option, text) };
  return runExport({
    store,
    kind,
    format,
    out,
    from: time('--from', window.from),
    to: time('--to', window.to),
    checkpointPath: window.checkpoint,
    timeZoneOf,
    parseTime: parseTimeArgument,
  });
}

/** A Parquet file's rows as plain values: INT64 as numbers, timestamps as ISO strings. */
async function readParquet(path: string): Promise<Row[]> {
  const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(path) })) as Row[];
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        typeof value === 'bigint' ? Number(value) : value instanceof Date ? value.toISOString() : value,
      ]),
    ),
  );
}

/** A CSV file's rows, typed like the Parquet ones (the export's CSV has no quoted commas in these columns). */
function readCsv(path: string, parquetLike: Row[]): Row[] {
  const [header, ...lines] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const names = (header ?? '').split(',');
  return lines.map((line, index) =>
    Object.fromEntries(
      line.split(',').map((cell, position) => {
        const name = names[position] ?? '';
        const like = parquetLike[index]?.[name];
        const value =
          cell === ''
            ? null
            : typeof like === 'number'
              ? Number(cell)
              : typeof like === 'boolean'
                ? cell === 'true'
                : cell;
        return [name, value];
      }),
    ),
  );
}

async function reportsOfTheLog(): Promise<AnalyticsFold> {
  const fold = new AnalyticsFold({ filter: {}, catalog: new Map(), timeZoneOf });
  await replay({ store, fold });
  return fold;
}

describe('reelstream export', () => {
  it('writes transactions whose applied money adds up to the agent report, the Parquet rows the CSV rows', async () => {
    const parquet = await exported('transactions', 'parquet', join(dir, 'transactions.parquet'));
    const csv = await exported('transactions', 'csv', join(dir, 'transactions.csv'));
    const rows = await readParquet(parquet.path);
    expect(rows.length).toBe(parquet.rows);
    expect(rows.length).toBeGreaterThan(300);
    expect(readCsv(csv.path, rows)).toEqual(rows);
    expect(new Set(rows.map((row) => row['status']))).toEqual(
      new Set(['applied', 'refused', 'unknown', 'dead_lettered']),
    );
    expect(rows.filter((row) => row['command'] === 'cancel').length).toBeGreaterThan(0);

    const days = new OperatorDays(timeZoneOf);
    const totals = new Map<string, { bets: number; wins: number; freeSpinWins: number; players: Set<unknown> }>();
    for (const row of rows) {
      if (row['streamer'] || row['command'] === 'cancel' || row['status'] !== 'applied') continue;
      const operatorId = String(row['operatorId']);
      const key = `${operatorId}|${days.dayOf(operatorId, Date.parse(String(row['answeredAt'])))}|${String(row['currency'])}`;
      const total = totals.get(key) ?? { bets: 0, wins: 0, freeSpinWins: 0, players: new Set() };
      const moved = Number(row['movedMinor']);
      if (row['command'] === 'bet') total.bets -= moved;
      else total.wins += moved;
      if (row['freeSpin']) total.freeSpinWins += moved;
      total.players.add(row['playerId']);
      totals.set(key, total);
    }
    // The cancels of this log revert bets that got no answer: they move nothing.
    const cancels = rows.filter((row) => row['command'] === 'cancel');
    expect(cancels.every((row) => row['movedMinor'] === 0)).toBe(true);

    const agent = (await reportsOfTheLog()).report('agent').rows;
    expect(agent.length).toBeGreaterThan(2);
    expect(
      Object.fromEntries(
        [...totals].map(([key, total]) => [key, [total.bets, total.wins, total.freeSpinWins, total.players.size]]),
      ),
    ).toEqual(
      Object.fromEntries(
        agent.map((row) => [
          `${row.operatorId}|${row.day}|${row.currency}`,
          [row.betsMinor, row.winsMinor, row.freeSpinWinsMinor, row.players],
        ]),
      ),
    );
  });

  it('writes rounds that add up to game performance, bonus calls to bonus outcomes, every ended session', async () => {
    const rounds = await readParquet((await exported('rounds', 'parquet', `${dir}/`)).path);
    const fold = await reportsOfTheLog();
    const performance = fold.report('game-performance').rows;
    const sum = (rows: Row[], key: string) => rows.reduce((total, row) => total + Number(row[key] ?? 0), 0);
    for (const currency of ['EUR', 'KRW']) {
      // A canceled round has no recorded model: game performance counts it on a row of its own.
      const rowsOf = performance.filter((row) => row.currency === currency && row.segment === 'standard');
      const total = (
        key: 'rounds' | 'turnoverMinor' | 'winsMinor' | 'freeRounds' | 'freeWinsMinor' | 'canceledRounds',
      ) => rowsOf.reduce((sum, row) => sum + row[key], 0);
      const paid = rounds.filter((row) => row['currency'] === currency && row['kind'] === 'paid' && !row['streamer']);
      const settled = paid.filter((row) => row['status'] === 'settled');
      const free = rounds.filter((row) => row['currency'] === currency && row['kind'] === 'free' && !row['streamer']);
      expect(total('rounds')).toBeGreaterThan(50);
      expect([settled.length, sum(settled, 'betMinor'), sum(settled, 'winMinor')]).toEqual([
        total('rounds'),
        total('turnoverMinor'),
        total('winsMinor'),
      ]);
      expect([free.length, sum(free, 'winMinor'), paid.length - settled.length]).toEqual([
        total('freeRounds'),
        total('freeWinsMinor'),
        total('canceledRounds'),
      ]);
      expect(free.every((row) => typeof row['bonusIssueId'] === 'number')).toBe(true);
      expect(paid.every((row) => row['bonusIssueId'] === null)).toBe(true);
    }

    const calls = await readParquet((await exported('bonus-calls', 'parquet', join(dir, 'calls.parquet'))).path);
    const outcomes = fold.report('bonus-outcomes').rows;
    expect(outcomes.length).toBeGreaterThan(5);
    expect(calls.map((row) => [row['issueId'], row['operatorId'], row['status'], row['totalWinMinor']]).sort()).toEqual(
      outcomes.map((row) => [row.issueId, row.operatorId, row.status, row.totalWinMinor]).sort(),
    );

    const sessions = await readParquet((await exported('sessions', 'parquet', join(dir, 'sessions.parquet'))).path);
    // Every session but the demo ones (every 25th) is ended in the synthetic log.
    expect(sessions.length).toBe(60 - 2);
    expect(sessions.every((row) => String(row['lastActivityAt']) >= String(row['startedAt']))).toBe(true);
    expect(sum(sessions, 'rounds')).toBe(rounds.length);
  });

  it('with a checkpoint, exports only the rows that are new since the last run, and a window once', async () => {
    const checkpoint = join(dir, 'transactions.checkpoint.json');
    const first = await exported('transactions', 'csv', join(dir, 'tx-1.csv'), { checkpoint });
    const again = await exported('transactions', 'csv', join(dir, 'tx-2.csv'), { checkpoint });
    expect(again.rows).toBe(0);

    await writeSyntheticLog(store, {
      operators,
      sessions: 20,
      roundsPerSession: 5,
      concurrency: 4,
      seed: 7,
      first: next,
      start: '2026-11-21T09:00:00.000Z',
    });
    const grown = await exported('transactions', 'csv', join(dir, 'tx-3.csv'), { checkpoint });
    const all = await exported('transactions', 'csv', join(dir, 'tx-all.csv'));
    const ids = (path: string) =>
      readFileSync(path, 'utf8')
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',').slice(0, 7).join(','));
    const before = ids(first.path);
    const after = ids(grown.path);
    expect(after.length).toBeGreaterThan(50);
    expect(after.filter((row) => before.includes(row))).toEqual([]);
    expect([...before, ...after].sort()).toEqual(ids(all.path).sort());
    expect(readCheckpoint(checkpoint, 'transactions')?.rows).toBe(all.rows);
  });

  it('with a checkpoint and a moving --to, writes each window once, and refuses a --to going back', async () => {
    const checkpoint = join(dir, 'rounds.checkpoint.json');
    const windows = ['2026-11-20 23:00', '2026-11-21', '2026-11-21', '2026-11-22'];
    const files: string[] = [];
    for (const [n, to] of windows.entries())
      files.push((await exported('rounds', 'csv', join(dir, `rounds-${n}.csv`), { checkpoint, to })).path);
    const all = await exported('rounds', 'csv', join(dir, 'rounds-all.csv'), { to: '2026-11-22' });
    const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n').slice(1);
    const parts = files.map(lines);
    expect(parts[0]?.length).toBeGreaterThan(10);
    expect(parts[2]).toEqual([]);
    expect(parts.flat().sort()).toEqual(lines(all.path).sort());
    await expect(
      exported('rounds', 'csv', join(dir, 'rounds-x.csv'), { checkpoint, to: '2026-11-21' }),
    ).rejects.toThrow(ExportArgumentError);
    await expect(exported('transactions', 'csv', join(dir, 'rounds-y.csv'), { checkpoint })).rejects.toThrow(
      /is for rounds, not transactions/,
    );
  });

  it('refuses --to before --from and an out file it cannot write', async () => {
    await expect(
      exported('rounds', 'csv', join(dir, 'r.csv'), { from: '2026-11-21', to: '2026-11-20' }),
    ).rejects.toThrow(/is not after --from/);
    await expect(exported('rounds', 'csv', join(dir, 'no', 'such', 'dir', 'r.csv'))).rejects.toThrow(
      /cannot write .*ENOENT/,
    );
  });
});
