/**
 * `reelstream export` from the command line (its errors: exit 2 with one line, nothing left behind)
 * and `reelstream reconcile --from/--to`: an operator's books taken at a point in time, made here
 * from the exported transactions of that period, reconcile with the log as it was then, also when
 * the operator keeps them from the house's side (every sign flipped).
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { formatAmountString } from '@reelstream/money';
import { cli, writeDataFile, type DataFile } from './cli-harness.js';

let data: DataFile;
const source = () => ['--source', data.path, '--operators', data.operatorsFile];
const common = () => [...source(), '--no-progress'];

beforeAll(async () => {
  data = await writeDataFile();
}, 60_000);
afterAll(() => rmSync(data.dir, { recursive: true, force: true }));

/** An exported CSV's rows by column name. */
function csvRows(path: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const names = (header ?? '').split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i] ?? '', cell])));
}

describe('reelstream export (command line)', () => {
  it('writes the rows, and says where and how many', async () => {
    const out = join(data.dir, 'rounds.parquet');
    const run = await cli(['export', 'rounds', '--out', out, ...common()]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^wrote .*rounds\.parquet: \d+ rounds row\(s\) from \d+ events\n$/);
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('PAR1');
  });

  it.each([
    [
      ['export', 'players', '--out', 'x.csv'],
      /unknown export "players": use rounds, transactions, bonus-calls, sessions/,
    ],
    [['export', '--out', 'x.csv'], /say what to export/],
    [['export', 'rounds'], /--out <file\|dir\/> is required/],
    [['export', 'rounds', '--out', 'x.csv', '--format', 'xlsx'], /unknown --format xlsx: use csv, parquet/],
    [
      ['export', 'rounds', '--out', 'x.csv', '--from', '2026-11-21', '--to', '2026-11-20'],
      /--to 2026-11-20 is not after --from 2026-11-21/,
    ],
    [['export', 'rounds', '--out', 'x.csv', '--from', '21/11/2026'], /--from "21\/11\/2026" is not a time/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const run = await cli([...args, ...common()], { cwd: data.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')[0]).toMatch(/^reelstream export: /);
    expect(existsSync(join(data.dir, 'x.csv'))).toBe(false);
  });

  it('refuses an out file it cannot write, and leaves nothing behind', async () => {
    // A path under a file: no user, root included, can create it.
    const file = join(data.dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const run = await cli(['export', 'sessions', '--out', join(file, 's.csv'), ...common()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^reelstream export: cannot write .*a-file\/s\.csv: ENOTDIR\n$/);
    expect(readdirSync(data.dir).filter((name) => name.includes('partial'))).toEqual([]);
  });
});

describe('reelstream reconcile --from/--to', () => {
  const operator = 'casino-eu';
  // The log runs 20:00–20:35 UTC: in Berlin 21:00–21:35. The export was taken at 21:20 Berlin time.
  const from = '2026-11-20 21:05';
  const to = '2026-11-20 21:20';

  /** The operator's books of the period as they stood at `to`: what it answered, from the exported transactions. */
  async function booksAt(flip: boolean): Promise<string> {
    const out = join(data.dir, `tx-${flip}.csv`);
    expect((await cli(['export', 'transactions', '--out', out, '--to', to, ...common()])).code).toBe(0);
    const fromMs = Date.parse('2026-11-20T20:05:00Z');
    const lines = csvRows(out)
      .filter((row) => row['operatorId'] === operator && Date.parse(row['requestedAt'] ?? '') >= fromMs)
      .filter((row) => row['status'] === 'applied' || row['status'] === 'refused')
      .map((row) => {
        const moved = Number(row['movedMinor']) * (flip ? -1 : 1);
        const status = row['status'] === 'applied' ? 'OK' : row['statusCode'];
        return `${row['transactionId']},${row['command']},${formatAmountString(moved, row['currency'] ?? '')},${row['currency']},${status}`;
      });
    expect(lines.length).toBeGreaterThan(20);
    const path = join(data.dir, `books-${flip}.csv`);
    writeFileSync(path, ['transactionId,command,amount,currency,status', ...lines].join('\n'));
    return path;
  }

  it('reconciles books of a period taken at a point in time with the log as it was then', async () => {
    const books = await booksAt(false);
    const windowed = await cli(['reconcile', '--operator', operator, books, '--from', from, '--to', to, ...source()]);
    expect(windowed.stdout).toMatch(
      /^window: transactions requested from 2026-11-20T20:05:00.000Z, the log as of 2026-11-20T20:20:00.000Z\n/,
    );
    expect(windowed.stdout).toContain('no difference');
    expect(windowed.code).toBe(0);
    // Against the whole log the same books lack every later transaction, and have none of the earlier ones.
    const whole = await cli(['reconcile', '--operator', operator, books, ...source()]);
    expect(whole.code).toBe(1);
    expect(whole.stdout).toMatch(/missing_at_operator/);
  });

  it('says once that the books have every sign flipped, and compares them flipped', async () => {
    const books = await booksAt(true);
    const run = await cli(['reconcile', '--operator', operator, books, '--from', from, '--to', to, ...source()]);
    expect(run.stdout.match(/opposite sign/g)).toHaveLength(1);
    expect(run.stdout).toContain('amounts read as flipped (detected)');
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain('no difference');
  });

  it('refuses --to before --from, and an unknown option, with exit 2', async () => {
    const unknown = await cli(['reconcile', '--operator', operator, 'x.csv', '--no-progress', ...source()]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--no-progress'/);
    const run = await cli(['reconcile', '--operator', operator, 'x.csv', '--from', to, '--to', from, ...source()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--to 2026-11-20 21:05 is not after --from 2026-11-20 21:20/);
  });
});
