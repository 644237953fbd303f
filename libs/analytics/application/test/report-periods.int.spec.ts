/**
 * game-performance and wallet-delivery `--by hour | day`: over logs written through the real
 * SQLite event store, each period's figures against what the test computes from every round and
 * wallet call the writers say they wrote, in Berlin (UTC+1 in November, its midnight crossed) and
 * Seoul (UTC+9); the periods add up to the report without `--by`, which keeps its columns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  AnalyticsFold,
  REPORT_COLUMNS,
  type CatalogGameFacts,
  type GamePerformanceRow,
  type SlaPeriod,
  type WalletDeliveryRow,
} from '@reelstream/analytics-domain';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { replay } from '../src/index.js';
import { writeSyntheticLog, type SyntheticLogResult } from './synthetic-log.js';
import { writeWalletSlaLog, type SyntheticWalletLog } from './synthetic-wallet-sla.js';

const OPERATORS = [
  { id: 'casino-eu', currency: 'EUR', timeZone: 'Europe/Berlin' },
  { id: 'casino-seoul', currency: 'KRW', timeZone: 'Asia/Seoul' },
];
/** The zones' offsets on these dates (no DST change near them): how the test names periods on its own. */
const OFFSET_HOURS: Record<string, number> = { 'casino-eu': 1, 'casino-seoul': 9 };
const CATALOG = new Map<number, CatalogGameFacts>([
  [101, { name: 'Lotus Garden', model: 'lotus-garden', rtp: 0.96, streamerRtp: 0.98 }],
]);
const timeZoneOf = (operatorId: string) => OPERATORS.find((operator) => operator.id === operatorId)?.timeZone ?? 'UTC';

const dir = mkdtempSync(join(tmpdir(), 'reelstream-periods-'));
let rounds: SqliteEventStore;
let wallet: SqliteEventStore;
let writtenRounds: SyntheticLogResult;
let writtenWallet: SyntheticWalletLog;

beforeAll(async () => {
  rounds = SqliteEventStore.open(join(dir, 'rounds.db'), { synchronous: 'NORMAL' });
  wallet = SqliteEventStore.open(join(dir, 'wallet.db'), { synchronous: 'NORMAL' });
  // Sessions from 23:20 to about 00:55 in Berlin (08:20 to 09:55 in Seoul): Berlin's hours cross its midnight.
  writtenRounds = await writeSyntheticLog(rounds, {
    operators: OPERATORS,
    sessions: 120,
    roundsPerSession: 4,
    start: '2026-11-20T22:20:00.000Z',
    concurrency: 4,
  });
  writtenWallet = await writeWalletSlaLog(wallet, {
    operators: OPERATORS,
    transactions: 200,
    start: '2026-11-20T22:10:00.000Z',
    spacingMs: 30_000,
  });
}, 60_000);
afterAll(async () => {
  await rounds.close();
  await wallet.close();
  rmSync(dir, { recursive: true, force: true });
});

async function fold(store: SqliteEventStore, by: SlaPeriod | undefined) {
  const analytics = new AnalyticsFold({ filter: {}, catalog: CATALOG, timeZoneOf, by });
  await replay({ store, fold: analytics, validation: 'strict' });
  return analytics;
}

function periodOf(operatorId: string, ms: number, by: SlaPeriod): string {
  const offset = OFFSET_HOURS[operatorId] ?? 0;
  const local = new Date(ms + offset * 3_600_000).toISOString();
  return by === 'day' ? local.slice(0, 10) : `${local.slice(0, 13)}:00+${String(offset).padStart(2, '0')}:00`;
}

interface GameFigures {
  rounds: number;
  turnoverMinor: number;
  winsMinor: number;
  freeRounds: number;
  freeWinsMinor: number;
  canceledRounds: number;
}

function expectedGamePerformance(by: SlaPeriod): Map<string, GameFigures> {
  const expected = new Map<string, GameFigures>();
  for (const round of writtenRounds.rounds) {
    const key = `${round.operatorId}|${periodOf(round.operatorId, round.atMs, by)}|${round.streamer ? 'streamer' : 'standard'}`;
    const figures = expected.get(key) ?? {
      rounds: 0,
      turnoverMinor: 0,
      winsMinor: 0,
      freeRounds: 0,
      freeWinsMinor: 0,
      canceledRounds: 0,
    };
    if (round.outcome === 'canceled') figures.canceledRounds += 1;
    else if (round.kind === 'free') {
      figures.freeRounds += 1;
      figures.freeWinsMinor += round.winMinor;
    } else {
      figures.rounds += 1;
      figures.turnoverMinor += round.betMinor;
      figures.winsMinor += round.winMinor;
    }
    expected.set(key, figures);
  }
  return expected;
}

const gameFigures = (row: GamePerformanceRow): GameFigures => ({
  rounds: row.rounds,
  turnoverMinor: row.turnoverMinor,
  winsMinor: row.winsMinor,
  freeRounds: row.freeRounds,
  freeWinsMinor: row.freeWinsMinor,
  canceledRounds: row.canceledRounds,
});

interface WalletFigures {
  callbacks: number;
  attempts: number;
  succeeded: number;
  latencyMaxMs: number | null;
}

function expectedWalletDelivery(by: SlaPeriod): Map<string, WalletFigures> {
  const expected = new Map<string, WalletFigures>();
  const figuresOf = (operatorId: string, command: string, ms: number) => {
    const key = `${operatorId}|${command}|${periodOf(operatorId, ms, by)}`;
    let figures = expected.get(key);
    if (!figures) {
      figures = { callbacks: 0, attempts: 0, succeeded: 0, latencyMaxMs: null };
      expected.set(key, figures);
    }
    return figures;
  };
  for (const transaction of writtenWallet.transactions) {
    figuresOf(transaction.operatorId, transaction.command, transaction.requestedMs).callbacks += 1;
    for (const attempt of transaction.attempts) {
      figuresOf(attempt.operatorId, attempt.command, attempt.startMs).attempts += 1;
      if (!attempt.answer) continue;
      // An answer, and its latency, count in the period it came in.
      const answered = figuresOf(attempt.operatorId, attempt.command, attempt.answer.atMs);
      if (attempt.answer.kind === 'ok') answered.succeeded += 1;
      answered.latencyMaxMs = Math.max(answered.latencyMaxMs ?? 0, attempt.answer.atMs - attempt.startMs);
    }
  }
  return expected;
}

const walletFigures = (row: WalletDeliveryRow): WalletFigures => ({
  callbacks: row.callbacks,
  attempts: row.attempts,
  succeeded: row.succeeded,
  latencyMaxMs: row.latencyMaxMs,
});

describe('game-performance and wallet-delivery by period', () => {
  it.each(['hour', 'day'] as const)('counts each round in the %s of its settlement or cancel', async (by) => {
    const { rows, columns } = (await fold(rounds, by)).report('game-performance');
    const actual = new Map(rows.map((row) => [`${row.operatorId}|${row.period}|${row.segment}`, gameFigures(row)]));
    expect(actual).toEqual(expectedGamePerformance(by));
    expect(rows.every((row) => row.timeZone === timeZoneOf(row.operatorId ?? ''))).toBe(true);
    expect(columns.map((column) => column.header).slice(0, 10)).toEqual([
      'provider',
      'game',
      'name',
      'model',
      'segment',
      'currency',
      'operator',
      'period',
      'timeZone',
      'rounds',
    ]);
    if (by === 'hour') {
      const berlin = new Set(rows.filter((row) => row.operatorId === 'casino-eu').map((row) => row.period));
      expect(berlin).toEqual(new Set(['2026-11-20T23:00+01:00', '2026-11-21T00:00+01:00']));
    } else {
      const berlin = new Set(rows.filter((row) => row.operatorId === 'casino-eu').map((row) => row.period));
      expect(berlin).toEqual(new Set(['2026-11-20', '2026-11-21']));
    }
  });

  it.each(['hour', 'day'] as const)('counts each wallet call in the %s of its own instant', async (by) => {
    const { rows, columns } = (await fold(wallet, by)).report('wallet-delivery');
    const actual = new Map(rows.map((row) => [`${row.operatorId}|${row.command}|${row.period}`, walletFigures(row)]));
    expect(actual).toEqual(expectedWalletDelivery(by));
    expect(columns.map((column) => column.header).slice(0, 5)).toEqual([
      'operator',
      'command',
      'period',
      'timeZone',
      'callbacks',
    ]);
    if (by === 'hour')
      expect(new Set(rows.filter((row) => row.operatorId === 'casino-eu').map((row) => row.period))).toEqual(
        new Set(['2026-11-20T23:00+01:00', '2026-11-21T00:00+01:00']),
      );
  });

  it('adds up, period by period, to the reports without --by, which keep their columns and rows', async () => {
    const hourly = await fold(rounds, 'hour');
    const whole = await fold(rounds, undefined);
    const game = whole.report('game-performance');
    expect(game.columns).toBe(REPORT_COLUMNS['game-performance']);
    expect(game.rows.every((row) => !('period' in row) && !('operatorId' in row))).toBe(true);
    for (const row of game.rows) {
      const periods = hourly
        .report('game-performance')
        .rows.filter((hour) => hour.segment === row.segment && hour.currency === row.currency);
      const sum = (key: keyof GameFigures) => periods.reduce((total, hour) => total + hour[key], 0);
      expect(gameFigures(row)).toEqual({
        rounds: sum('rounds'),
        turnoverMinor: sum('turnoverMinor'),
        winsMinor: sum('winsMinor'),
        freeRounds: sum('freeRounds'),
        freeWinsMinor: sum('freeWinsMinor'),
        canceledRounds: sum('canceledRounds'),
      });
    }
    const daily = (await fold(wallet, 'day')).report('wallet-delivery').rows;
    const delivery = (await fold(wallet, undefined)).report('wallet-delivery');
    expect(delivery.columns).toBe(REPORT_COLUMNS['wallet-delivery']);
    for (const row of delivery.rows) {
      expect('period' in row).toBe(false);
      const days = daily.filter((day) => day.operatorId === row.operatorId && day.command === row.command);
      for (const key of ['callbacks', 'attempts', 'retries', 'cancels', 'deadLetters', 'succeeded'] as const)
        expect([key, days.reduce((total, day) => total + day[key], 0)]).toEqual([key, row[key]]);
    }
  });
});
