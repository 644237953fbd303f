/**
 * scripts/daily-reports.sh, the daily job of a machine without Kubernetes, run end to end as cron
 * would run it (sh, the CLI through its package bin) on a data file written through the real SQLite
 * event store around the real clock: the dated folder gets yesterday's reports and the rounds and
 * transactions closed before today's midnight; a second run the same day exports no row again; a
 * round of yesterday appended late is exported once by the next run. The Kubernetes CronJob's steps
 * (k8s/analytics/daily-reports-cronjob.yaml), run as written, write the same files.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { writeSyntheticLog, type SyntheticLogResult } from '../../../libs/analytics/application/test/synthetic-log.js';
import { cli, OPERATORS, writeOperatorsFile } from './cli-harness.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

const DAY_MS = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
// The clock the script will read: the test's batches are placed around it.
const now = Date.now();
const today = utcDate(now);
const yesterday = utcDate(now - DAY_MS);
/** 06:00 UTC of a date: the same date in Berlin (07:00) and Seoul (15:00). */
const sixAm = (date: string) => `${date}T06:00:00.000Z`;

let dir: string;
let dataFile: string;
let reports: string;
let operatorsFile: string;
const batches: SyntheticLogResult[] = [];

async function write(start: string, sessions: number): Promise<SyntheticLogResult> {
  const store = SqliteEventStore.open(dataFile, { synchronous: 'NORMAL' });
  try {
    const previous = batches[batches.length - 1];
    const written = await writeSyntheticLog(store, {
      operators: OPERATORS,
      sessions,
      roundsPerSession: 3,
      start,
      concurrency: 4,
      ...(previous ? { first: previous.next } : {}),
    });
    batches.push(written);
    return written;
  } finally {
    await store.close();
  }
}

async function daily(): Promise<string> {
  const { stderr } = await run('sh', [join(ROOT, 'scripts/daily-reports.sh')], {
    cwd: dir,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: dir,
      REPORTS_DIR: reports,
      REELSTREAM_CLI: join(ROOT, 'apps/reelstream-cli/bin/reelstream.mjs'),
      EVENT_STORE_URL: `sqlite:${dataFile}`,
      OPERATORS_FILE: operatorsFile,
    },
  });
  return stderr;
}

/** CSV rows (header first) of a file the job wrote. */
const csv = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split(/\r?\n/)
    .map((line) => line.split(','));

/** Every exported row of a kind, all runs together, as objects. */
function exported(kind: 'rounds' | 'transactions', base = reports): Record<string, string>[] {
  const dated = join(base, yesterday);
  return readdirSync(dated)
    .filter((name) => name.startsWith(`${kind}-`) && name.endsWith('.csv'))
    .flatMap((name) => {
      const [header = [], ...rows] = csv(join(dated, name));
      return rows.map((row) => Object.fromEntries(header.map((column, i) => [column, row[i] ?? ''])));
    });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reelstream-daily-'));
  dataFile = join(dir, 'reelstream.db');
  reports = join(dir, 'reports');
  operatorsFile = join(dir, 'operators.json');
  writeOperatorsFile(operatorsFile, OPERATORS);
  // The day before yesterday, yesterday and today: the reports hold yesterday's alone, the exports
  // everything closed before today's midnight.
  await write(sixAm(utcDate(now - 2 * DAY_MS)), 8);
  await write(sixAm(yesterday), 16);
  await write(sixAm(today), 8);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/daily-reports.sh', () => {
  let first: Record<string, string>[];

  it("writes yesterday's reports and the rows closed before today into a dated folder", async () => {
    const log = await daily();
    expect(log).toContain(`wrote ${join(reports, yesterday, 'agent.csv')}`);
    const files = readdirSync(join(reports, yesterday));
    for (const report of ['agent', 'game-performance', 'wallet-delivery', 'bonus-outcomes', 'wallet-sla'])
      expect(files).toContain(`${report}.csv`);

    // The agent report: yesterday's day in each operator's zone, the figures the writer counted.
    const [header = [], ...rows] = csv(join(reports, yesterday, 'agent.csv'));
    const column = (name: string) => header.indexOf(name);
    const expected = batches[1]?.agent ?? new Map();
    expect(
      rows.map((row) => `${row[column('operator')]}|${row[column('day')]}|${row[column('currency')]}`).sort(),
    ).toEqual([...expected.keys()].sort());
    for (const row of rows) {
      const totals = expected.get(`${row[column('operator')]}|${row[column('day')]}|${row[column('currency')]}`);
      const minor = row[column('currency')] === 'EUR' ? 100 : 1;
      expect(Math.round(Number(row[column('bets')]) * minor)).toBe(totals?.betsMinor);
      expect(Math.round(Number(row[column('wins')]) * minor)).toBe(totals?.winsMinor);
    }

    // Rounds: every round of the two earlier batches, none of today's, each once.
    first = exported('rounds');
    const roundIds = first.map((row) => row['roundId']);
    expect(new Set(roundIds).size).toBe(roundIds.length);
    const before = (batches[0]?.rounds.length ?? 0) + (batches[1]?.rounds.length ?? 0);
    expect(roundIds.length).toBe(before);
    expect(new Set(roundIds)).toEqual(
      new Set([...(batches[0]?.rounds ?? []), ...(batches[1]?.rounds ?? [])].map((round) => String(round.roundId))),
    );
    expect(exported('transactions').length).toBeGreaterThan(before / 2);
  }, 120_000);

  it('exports no row twice when run again the same day, and a late round of yesterday once', async () => {
    const transactions = exported('transactions').length;
    const agent = readFileSync(join(reports, yesterday, 'agent.csv'), 'utf8');
    const log = await daily();
    expect(log).toMatch(/wrote .*rounds-[^ ]*: 0 rounds row\(s\)/);
    expect(log).toMatch(/wrote .*transactions-[^ ]*: 0 transactions row\(s\)/);
    expect(exported('rounds')).toEqual(first);
    expect(exported('transactions')).toHaveLength(transactions);
    // The reports are recomputed from the log: the same day gives the same file.
    expect(readFileSync(join(reports, yesterday, 'agent.csv'), 'utf8')).toBe(agent);

    const late = await write(`${yesterday}T08:00:00.000Z`, 4);
    await daily();
    const all = exported('rounds').map((row) => row['roundId']);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(first.length + late.rounds.length);
    expect(new Set(all)).toEqual(
      new Set([...first.map((row) => row['roundId']), ...late.rounds.map((round) => String(round.roundId))]),
    );
  }, 180_000);

  it('runs the same steps as the Kubernetes CronJob, whose arguments the CLI takes as they are written', async () => {
    interface Step {
      name: string;
      command: string[];
      args: string[];
    }
    const manifest = parse(readFileSync(join(ROOT, 'k8s/analytics/daily-reports-cronjob.yaml'), 'utf8')) as {
      spec: { jobTemplate: { spec: { template: { spec: { initContainers: Step[]; containers: Step[] } } } } };
    };
    const pod = manifest.spec.jobTemplate.spec.template.spec;
    const volume = join(dir, 'volume');
    for (const step of [...pod.initContainers, ...pod.containers]) {
      expect(step.command).toEqual(['node', 'dist/apps/reelstream-cli/main.js']);
      // The claim mounted at /reports is a directory here; the event store and operators are the test's.
      const args = step.args.map((arg) => arg.replace(/^\/reports(?=\/)/, volume));
      const run = await cli([...args, '--source', dataFile, '--operators', operatorsFile]);
      expect([step.name, run.code]).toEqual([step.name, 0]);
    }
    const files = (folder: string) => readdirSync(folder).sort();
    const reportFiles = (folder: string) => files(folder).filter((name) => !/^(rounds|transactions)-/.test(name));
    expect(reportFiles(join(volume, yesterday))).toEqual(reportFiles(join(reports, yesterday)));
    expect(readFileSync(join(volume, yesterday, 'agent.csv'), 'utf8')).toBe(
      readFileSync(join(reports, yesterday, 'agent.csv'), 'utf8'),
    );
    // One run exports at once the rows the script's three runs exported.
    for (const kind of ['rounds', 'transactions'] as const) {
      const key = kind === 'rounds' ? 'roundId' : 'transactionId';
      const ids = (base: string) =>
        exported(kind, base)
          .map((row) => `${row[key]}|${row['status']}`)
          .sort();
      expect(ids(volume)).toEqual(ids(reports));
    }
    expect(files(join(volume, 'checkpoints'))).toEqual(['rounds.json', 'transactions.json']);
  }, 120_000);
});
