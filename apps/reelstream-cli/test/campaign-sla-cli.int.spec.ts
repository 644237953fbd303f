/**
 * `reelstream replay --report campaigns | bonus-return | wallet-sla` on a data file written through
 * the real SQLite event store: the reports and their options (`--window`, `--by`, `--target-ms`,
 * `--storm-attempts`) as printed, filters, and the options' errors (exit 2, nothing on stdout).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import {
  CAMPAIGN_OPERATORS,
  writeCampaignLog,
  type SyntheticCampaignLog,
} from '../../../libs/analytics/application/test/synthetic-campaigns.js';
import { writeWalletSlaLog } from '../../../libs/analytics/application/test/synthetic-wallet-sla.js';
import { cli, writeOperatorsFile } from './cli-harness.js';

let dir: string;
let path: string;
let operatorsFile: string;
let written: SyntheticCampaignLog;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reelstream-cli-campaigns-'));
  path = join(dir, 'reelstream.db');
  const store = SqliteEventStore.open(path, { synchronous: 'NORMAL' });
  written = await writeCampaignLog(store);
  await writeWalletSlaLog(store, {
    operators: CAMPAIGN_OPERATORS,
    transactions: 60,
    start: '2026-11-20T22:30:00.000Z',
    spacingMs: 60_000,
  });
  await store.close();
  operatorsFile = join(dir, 'operators.json');
  writeOperatorsFile(operatorsFile, CAMPAIGN_OPERATORS);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const replay = (...args: string[]) =>
  cli(['replay', '--source', path, '--operators', operatorsFile, '--no-progress', ...args]);

const json = async (...args: string[]) => {
  const run = await replay('--format', 'json', ...args);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, { rows: Record<string, unknown>[] }>;
};

describe('reelstream replay: campaigns, bonus-return, wallet-sla', () => {
  it('prints the campaigns per operator with refusals by code and the cost in the currency exponent', async () => {
    const { campaigns } = await json('--report', 'campaigns');
    const eu = written.bonuses.filter((bonus) => bonus.operatorId === 'casino-eu' && bonus.campaignId === 'autumn');
    const cost = eu.reduce((sum, bonus) => sum + bonus.spinWins.reduce((a, b) => a + b, 0), 0);
    expect(campaigns?.rows).toEqual([
      expect.objectContaining({
        operator: 'casino-eu',
        campaign: 'autumn',
        players: 4,
        registered: 3,
        refused: 1,
        refusedByCode: 'ACTIVE_BONUS_EXISTS=1',
        expired: 1,
        endedUnplayed: 1,
        bonusCost: (cost / 100).toFixed(2),
      }),
      expect.objectContaining({
        operator: 'casino-seoul',
        campaign: 'autumn',
        refusedByCode: 'CURRENCY_NOT_ALLOWED=1',
      }),
    ]);
  });

  it('keeps one operator\u2019s campaigns with --operator', async () => {
    const { campaigns } = await json('--report', 'campaigns', '--operator', 'casino-seoul');
    expect(campaigns?.rows.map((row) => row['operator'])).toEqual(['casino-seoul']);
  });

  it('prints bonus-return with the window asked for', async () => {
    const week = await json('--report', 'bonus-return');
    const day = await json('--report', 'bonus-return', '--window', '1');
    expect(week['bonus-return']?.rows.every((row) => row['windowDays'] === 7)).toBe(true);
    expect(day['bonus-return']?.rows.every((row) => row['windowDays'] === 1)).toBe(true);
    const turnover = (report: typeof week) =>
      (report['bonus-return']?.rows ?? [])
        .filter((row) => row['currency'] === 'EUR')
        .reduce((sum, row) => sum + Number(row['turnover']), 0);
    // A day's window leaves out pa's last bet (six days after its second bonus).
    expect(turnover(week)).toBeCloseTo(14, 2);
    expect(turnover(day)).toBeCloseTo(8, 2);
  });

  it('prints wallet-sla by hour with the target and storm threshold asked for, as CSV', async () => {
    const run = await replay(
      '--format',
      'csv',
      '--report',
      'wallet-sla',
      '--by',
      'hour',
      '--target-ms',
      '250',
      '--storm-attempts',
      '2',
      '--from',
      '2026-11-20T22:00:00Z',
      '--to',
      '2026-11-21T02:00:00Z',
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = run.stdout.trimEnd().split('\r\n');
    expect(header).toBe(
      'operator,command,period,timeZone,targetMs,callbacks,attempts,answered,p50ms,p95ms,p99ms,maxms,overTarget,timeouts,timeoutRate,errors,errorRate,retryStorms,unanswered',
    );
    const berlin = rows.filter((row) => row.startsWith('casino-eu,'));
    expect(new Set(berlin.map((row) => row.split(',')[2]))).toEqual(
      new Set(['2026-11-20T23:00+01:00', '2026-11-21T00:00+01:00']),
    );
    expect(rows.every((row) => row.split(',')[4] === '250')).toBe(true);
  });

  it('defaults wallet-sla to days and the dispatcher\u2019s limits', async () => {
    const { 'wallet-sla': sla } = await json('--report', 'wallet-sla');
    const targets = new Map(sla?.rows.map((row) => [row['command'], row['targetMs']]));
    expect(targets.get('bet')).toBe(3000);
    expect(targets.get('win')).toBe(4000);
    expect(sla?.rows.every((row) => /^\d{4}-\d{2}-\d{2}$/.test(String(row['period'])))).toBe(true);
  });

  it('prints game-performance and wallet-delivery by hour with the period after the keys; without --by as before', async () => {
    const hourly = await replay('--format', 'csv', '--report', 'wallet-delivery', '--by', 'hour');
    expect(hourly).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = hourly.stdout.trimEnd().split('\r\n');
    expect(header?.split(',').slice(0, 5)).toEqual(['operator', 'command', 'period', 'timeZone', 'callbacks']);
    const berlin = rows.filter((row) => row.startsWith('casino-eu,'));
    expect(new Set(berlin.map((row) => row.split(',')[2]))).toContain('2026-11-21T00:00+01:00');
    const whole = await replay('--format', 'csv', '--report', 'wallet-delivery');
    expect(whole.stdout.split('\r\n')[0]?.split(',').slice(0, 3)).toEqual(['operator', 'command', 'callbacks']);
    const games = await replay('--format', 'csv', '--report', 'game-performance', '--by', 'day');
    expect(games).toMatchObject({ code: 0, stderr: '' });
    expect(games.stdout.split('\r\n')[0]?.split(',').slice(5, 10)).toEqual([
      'currency',
      'operator',
      'period',
      'timeZone',
      'rounds',
    ]);
  });

  it.each([
    [
      'an unknown period for game-performance',
      ['--report', 'game-performance', '--by', 'month'],
      /unknown --by month: use hour or day/,
    ],
    [
      'an unknown period for wallet-delivery',
      ['--report', 'wallet-delivery', '--by', ''],
      /unknown --by : use hour or day/,
    ],
  ])('refuses %s with exit 2 naming --by', async (_what, args, message) => {
    const run = await replay(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });

  it.each([
    ['a window of 0 days', ['--window', '0'], /--window "0" is not a whole number from 1 to 366/],
    ['a window that is not a number', ['--window', 'week'], /--window "week" is not a whole number from 1 to 366/],
    ['a window over a year', ['--window', '400'], /--window "400" is not a whole number from 1 to 366/],
    ['an unknown period', ['--by', 'week'], /unknown --by week: use hour or day/],
    ['a negative target', ['--target-ms=-5'], /--target-ms "-5" is not a whole number from 1 to 600000/],
    ['a target of 0', ['--target-ms', '0'], /--target-ms "0" is not a whole number from 1 to 600000/],
    ['a fractional target', ['--target-ms', '2.5'], /--target-ms "2.5" is not a whole number/],
    ['a storm of one attempt', ['--storm-attempts', '1'], /--storm-attempts "1" is not a whole number from 2 to 100/],
  ])('refuses %s with exit 2 and prints no report', async (_what, args, message) => {
    const run = await replay('--report', 'all', ...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });
});
