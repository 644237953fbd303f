/**
 * `reelstream replay` on a data file written through the real SQLite event store: the reports'
 * figures against what the workload counted while writing, the formats, the filters, and the
 * errors a user can make (exit code 2, nothing created).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli, expectedAgentRows, writeDataFile, type DataFile } from './cli-harness.js';

let data: DataFile;
const replay = (...args: string[]) =>
  cli(['replay', '--source', data.path, '--operators', data.operatorsFile, '--no-progress', ...args]);

beforeAll(async () => {
  data = await writeDataFile();
}, 60_000);
afterAll(() => rmSync(data.dir, { recursive: true, force: true }));

interface JsonReport {
  rows: Record<string, unknown>[];
}
const json = async (...args: string[]) => {
  const run = await replay('--format', 'json', ...args);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, JsonReport>;
};

describe('reelstream replay', () => {
  it('prints the agent report the workload counted, per operator, day and currency, streamers excluded', async () => {
    const { agent } = await json('--report', 'agent');
    const expected = expectedAgentRows(data.written.agent);
    expect(agent?.rows.map(({ timeZone: _zone, ...row }) => row)).toEqual(
      expect.arrayContaining(expected.map((row) => expect.objectContaining(row))),
    );
    expect(agent?.rows).toHaveLength(expected.length);
  });

  it('shows streamer rounds apart in game performance, against the streamer RTP target', async () => {
    const { 'game-performance': games } = await json('--report', 'game-performance');
    const streamer = games?.rows.filter((row) => row['segment'] === 'streamer') ?? [];
    expect(streamer.reduce((sum, row) => sum + (row['rounds'] as number), 0)).toBe(data.written.streamerPaidRounds);
    expect(streamer.every((row) => row['rtpTarget'] === 1.05)).toBe(true);
    expect(games?.rows.filter((row) => row['segment'] === 'standard').every((row) => row['rtpTarget'] === 0.96)).toBe(
      true,
    );
  });

  it.each(['table', 'csv', 'ndjson', 'json'])('gives byte-identical %s output when run twice', async (format) => {
    const first = await replay('--format', format);
    const second = await replay('--format', format);
    expect(first.code).toBe(0);
    expect(first.stdout.length).toBeGreaterThan(500);
    expect(second.stdout).toBe(first.stdout);
  });

  it('writes CSV with one header row and money in the currency exponent', async () => {
    const { stdout } = await replay('--format', 'csv', '--report', 'agent');
    const [header, ...rows] = stdout.trimEnd().split('\r\n');
    expect(header).toBe('operator,day,timeZone,currency,bets,wins,ggr,freeSpinWins,bonusNotional,bonusPaid,players');
    expect(rows.find((row) => row.includes(',EUR,'))).toMatch(/,EUR,\d+\.\d{2},\d+\.\d{2},-?\d+\.\d{2},/);
    expect(rows.find((row) => row.includes(',KRW,'))).toMatch(/,KRW,\d+,\d+,-?\d+,\d+,\d+,\d+,\d+$/);
  });

  it('writes NDJSON rows naming their report', async () => {
    const { stdout } = await replay('--format', 'ndjson', '--report', 'wallet-delivery');
    const rows = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row['report']))).toEqual(new Set(['wallet-delivery']));
    expect(rows.map((row) => row['command'])).toEqual(expect.arrayContaining(['bet', 'win']));
  });

  it('keeps one operator with --operator, one player with --player', async () => {
    const byOperator = await json('--operator', 'casino-eu');
    for (const report of Object.values(byOperator))
      for (const row of report.rows) if ('operator' in row) expect(row['operator']).toBe('casino-eu');
    const { 'bonus-outcomes': bonuses } = await json('--player', 'p4');
    expect(bonuses?.rows.length).toBeGreaterThan(0);
    expect(new Set(bonuses?.rows.map((row) => row['player']))).toEqual(new Set(['p4']));
  });

  it('counts only the categories asked for with --category', async () => {
    const reports = await json('--category', 'walletTx');
    expect(reports['bonus-outcomes']?.rows).toEqual([]);
    expect(reports['game-performance']?.rows).toEqual([]);
    expect(reports['wallet-delivery']?.rows.length).toBeGreaterThan(0);
  });

  it('reads --from/--to in each operator’s time zone', async () => {
    // The workload runs 2026-11-20 20:00Z onwards: the 21st in Seoul (UTC+9), still the 20th in Berlin.
    const seoulDay = await json('--report', 'agent', '--from', '2026-11-21', '--to', '2026-11-21');
    expect(new Set(seoulDay['agent']?.rows.map((row) => row['operator']))).toEqual(new Set(['casino-seoul']));
    const berlinDay = await json('--report', 'agent', '--from', '2026-11-20', '--to', '2026-11-20');
    expect(new Set(berlinDay['agent']?.rows.map((row) => row['operator']))).toEqual(new Set(['casino-eu']));
  });

  it('gives the state as of a moment with --at', async () => {
    const { 'bonus-outcomes': early } = await json('--at', '2026-11-20T20:00:01Z');
    expect(early?.rows.length).toBeGreaterThan(0);
    expect(early?.rows.every((row) => row['status'] === 'active')).toBe(true);
    const { 'bonus-outcomes': later } = await json();
    expect(later?.rows.every((row) => row['status'] === 'completed')).toBe(true);
  });

  it('draws a progress line with events/s on a terminal only', async () => {
    const tty = await cli(['replay', '--source', data.path, '--operators', data.operatorsFile], { tty: true });
    expect(tty.stderr).toMatch(/\[#+\] 100% {2}[\d,]+ events {2}[\d,]+ events\/s/);
    const piped = await replay();
    expect(piped.stderr).toBe('');
  });
});

describe('reelstream replay refuses bad input with exit code 2', () => {
  it.each([
    ['a missing data file', ['--source', '/nonexistent/dir/none.db'], /no data file at \/nonexistent\/dir\/none\.db/],
    ['a bad URL', ['--source', 'ftp://example.com/log'], /bad --source ftp:\/\/example\.com\/log/],
    ['an EventStoreDB nobody answers at', ['--source', 'esdb://127.0.0.1:1?tls=false'], /cannot reach EventStoreDB/],
    ['an unknown operator', ['--operator', 'no-such-casino'], /unknown operator no-such-casino/],
    ['a time in the wrong format', ['--from', '20/11/2026'], /--from "20\/11\/2026" is not a time/],
    ['a date that does not exist', ['--to', '2026-02-30'], /is not a calendar date/],
    ['a range that ends before it starts', ['--from', '2026-11-21', '--to', '2026-11-20'], /is not before --to/],
    ['an unknown report', ['--report', 'profit'], /unknown --report profit/],
    ['an unknown format', ['--format', 'xml'], /unknown --format xml/],
    ['an unknown option', ['--colour'], /Unknown option '--colour'/],
  ])('%s', async (_what, args, message) => {
    const base = args.includes('--source') ? [] : ['--source', data.path];
    const run = await cli(['replay', '--operators', data.operatorsFile, '--no-progress', ...base, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it('lists the commands without one, and refuses an unknown one', async () => {
    const bare = await cli([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/commands:\n {2}replay /);
    expect((await cli(['--help'])).code).toBe(0);
    const unknown = await cli(['replya']);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('unknown command "replya"')]);
    expect((await cli(['replay', '--help'])).stdout).toContain('--operator <id>');
  });

  it('creates no file when the data file is missing', async () => {
    const missing = join(data.dir, 'missing.db');
    expect((await cli(['replay', '--source', missing])).code).toBe(2);
    expect(existsSync(missing)).toBe(false);
  });
});
