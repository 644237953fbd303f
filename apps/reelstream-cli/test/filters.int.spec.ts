/**
 * Filters keep what they are about: `--game` keeps the bonus calls that name the game (their
 * registration and end), so bonus outcomes and bonus figures survive it; a filter that matches nothing
 * says so on stderr instead of printing empty reports.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli, writeDataFile, type DataFile } from './cli-harness.js';

let data: DataFile;
const replay = (...args: string[]) =>
  cli(['replay', '--source', data.path, '--operators', data.operatorsFile, '--no-progress', ...args]);

interface Rows {
  rows: Record<string, unknown>[];
}
async function json(...args: string[]): Promise<Record<string, Rows>> {
  const run = await replay('--format', 'json', ...args);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, Rows>;
}
const total = (rows: Rows | undefined, column: string) =>
  (rows?.rows ?? []).reduce((sum, row) => sum + Number(row[column]), 0);

beforeAll(async () => {
  data = await writeDataFile(30);
}, 60_000);
afterAll(() => rmSync(data.dir, { recursive: true, force: true }));

describe('--game keeps the bonus calls that name the game', () => {
  it('gives the same bonus outcomes and bonus figures as the whole log when every bonus is on that game', async () => {
    const all = await json();
    const game = await json('--game', '101');
    expect(all['bonus-outcomes']?.rows.length).toBeGreaterThan(0);
    expect(game['bonus-outcomes']?.rows).toEqual(all['bonus-outcomes']?.rows);
    expect(game['bonus-outcomes']?.rows.every((row) => row['status'] === 'completed')).toBe(true);
    expect(total(game['agent'], 'bonusNotional')).toBeGreaterThan(0);
    expect(total(game['agent'], 'bonusNotional')).toBe(total(all['agent'], 'bonusNotional'));
    expect(total(game['agent'], 'bonusPaid')).toBe(total(all['agent'], 'bonusPaid'));
  });
});

describe('a filter that matches nothing', () => {
  it.each([
    [['--player', 'nobody'], /no event of the [\d,]+ in the log matches --player nobody$/],
    [['--game', '999'], /matches --game 999$/],
    [['--provider', '77', '--operator', 'casino-eu'], /matches --operator casino-eu --provider 77$/],
  ])('%j is an error on stderr, exit 2, no empty reports', async (args, message) => {
    const run = await replay(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd()).toMatch(message);
  });

  it('of a time range with no play says so on stderr and prints the empty reports (an idle day is an answer)', async () => {
    const run = await replay('--from', '2020-01-01', '--to', '2020-01-02', '--report', 'agent', '--format', 'csv');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/matches --from 2020-01-01 --to 2020-01-02: the reports are empty/);
    expect(run.stdout.trimEnd().split('\r\n')).toHaveLength(1);
  });
});
