/**
 * The wallet-sla report over a log of wallet calls written through the real SQLite event store
 * (synthetic-wallet-sla.ts), against figures computed here from every attempt the writer says it
 * wrote: hour buckets across local midnight in Berlin (UTC+1 in November) and Seoul (UTC+9),
 * time-outs, a win timed out then answered OK on its retry, retry storms, calls never answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AnalyticsFold, type WalletSlaSettings } from '@reelstream/analytics-domain';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { replay } from '../src/index.js';
import { writeWalletSlaLog, type SyntheticWalletLog } from './synthetic-wallet-sla.js';

const OPERATORS = [
  { id: 'casino-eu', currency: 'EUR', timeZone: 'Europe/Berlin' },
  { id: 'casino-seoul', currency: 'KRW', timeZone: 'Asia/Seoul' },
];
/** The zones' offsets on these dates (no DST change near them): how the test names hours on its own. */
const OFFSET_HOURS: Record<string, number> = { 'casino-eu': 1, 'casino-seoul': 9 };

const dir = mkdtempSync(join(tmpdir(), 'reelstream-wallet-sla-'));
let store: SqliteEventStore;
let written: SyntheticWalletLog;

beforeAll(async () => {
  store = SqliteEventStore.open(join(dir, 'events.db'), { synchronous: 'NORMAL' });
  // 22:10 to 01:30 in Berlin, 06:10 to 09:30 in Seoul: Berlin's hours cross its midnight.
  written = await writeWalletSlaLog(store, {
    operators: OPERATORS,
    transactions: 400,
    start: '2026-11-20T21:10:00.000Z',
    spacingMs: 30_000,
  });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function report(walletSla: WalletSlaSettings) {
  const fold = new AnalyticsFold({
    filter: {},
    catalog: new Map(),
    timeZoneOf: (operatorId) => OPERATORS.find((operator) => operator.id === operatorId)?.timeZone ?? 'UTC',
    walletSla,
  });
  await replay({ store, fold, validation: 'strict' });
  return fold.report('wallet-sla').rows;
}

function periodOf(operatorId: string, ms: number, by: 'hour' | 'day'): string {
  const offset = OFFSET_HOURS[operatorId] ?? 0;
  const local = new Date(ms + offset * 3_600_000).toISOString();
  return by === 'day' ? local.slice(0, 10) : `${local.slice(0, 13)}:00+${String(offset).padStart(2, '0')}:00`;
}

/** Nearest rank, written out here. */
function rank(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1] ?? null;
}

const TARGETS: Record<string, number> = { bet: 3_000, betwin: 3_000, win: 4_000, cancel: 3_000 };

function expected(log: SyntheticWalletLog, by: 'hour' | 'day', targetMs: number | undefined, storm: number) {
  interface Acc {
    operatorId: string;
    command: string;
    period: string;
    callbacks: number;
    attempts: number;
    latencies: number[];
    timeouts: number;
    timeoutLatencies: number[];
    errors: number;
    storms: number;
  }
  const rows = new Map<string, Acc>();
  const acc = (operatorId: string, command: string, ms: number) => {
    const period = periodOf(operatorId, ms, by);
    const key = `${operatorId}|${command}|${period}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        operatorId,
        command,
        period,
        callbacks: 0,
        attempts: 0,
        latencies: [],
        timeoutLatencies: [],
        timeouts: 0,
        errors: 0,
        storms: 0,
      };
      rows.set(key, row);
    }
    return row;
  };
  for (const transaction of log.transactions) {
    acc(transaction.operatorId, transaction.command, transaction.requestedMs).callbacks += 1;
    transaction.attempts.forEach((attempt, index) => {
      const row = acc(attempt.operatorId, attempt.command, attempt.startMs);
      row.attempts += 1;
      if (index + 1 === storm) row.storms += 1;
      if (!attempt.answer) return;
      row.latencies.push(attempt.answer.atMs - attempt.startMs);
      if (attempt.answer.kind !== 'ok') row.errors += 1;
      if (attempt.answer.kind === 'timeout') {
        row.timeouts += 1;
        row.timeoutLatencies.push(attempt.answer.atMs - attempt.startMs);
      }
    });
  }
  return [...rows.values()]
    .map((row) => {
      const sorted = [...row.latencies].sort((a, b) => a - b);
      const answered = sorted.length;
      const target = targetMs ?? TARGETS[row.command] ?? 0;
      return {
        operatorId: row.operatorId,
        command: row.command,
        period: row.period,
        timeZone: OPERATORS.find((operator) => operator.id === row.operatorId)?.timeZone,
        targetMs: target,
        callbacks: row.callbacks,
        attempts: row.attempts,
        answered,
        latencyP50Ms: rank(sorted, 50),
        latencyP95Ms: rank(sorted, 95),
        latencyP99Ms: rank(sorted, 99),
        latencyMaxMs: sorted.at(-1) ?? null,
        overTarget:
          answered === 0
            ? null // A time-out misses the target whatever its latency.
            : (sorted.filter((value) => value > target).length +
                row.timeoutLatencies.filter((value) => value <= target).length) /
              answered,
        timeouts: row.timeouts,
        timeoutRate: answered === 0 ? null : row.timeouts / answered,
        errors: row.errors,
        errorRate: answered === 0 ? null : row.errors / answered,
        retryStorms: row.storms,
        unanswered: row.attempts - answered,
      };
    })
    .sort((a, b) => {
      const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      return order(a.operatorId, b.operatorId) || order(a.command, b.command) || order(a.period, b.period);
    });
}

describe('the wallet-sla report', () => {
  it('buckets by hour in each operator\u2019s zone, across Berlin\u2019s midnight, with exact percentiles', async () => {
    const rows = await report({ by: 'hour', stormAttempts: 3 });
    expect(rows).toEqual(expected(written, 'hour', undefined, 3));
    const berlinHours = new Set(rows.filter((row) => row.operatorId === 'casino-eu').map((row) => row.period));
    expect(berlinHours).toEqual(
      new Set(['2026-11-20T22:00+01:00', '2026-11-20T23:00+01:00', '2026-11-21T00:00+01:00', '2026-11-21T01:00+01:00']),
    );
  });

  it('buckets by day: Berlin\u2019s calls fall on two days, Seoul\u2019s on one', async () => {
    const rows = await report({ by: 'day', stormAttempts: 3 });
    expect(rows).toEqual(expected(written, 'day', undefined, 3));
    expect(new Set(rows.filter((row) => row.operatorId === 'casino-eu').map((row) => row.period))).toEqual(
      new Set(['2026-11-20', '2026-11-21']),
    );
    expect(new Set(rows.filter((row) => row.operatorId === 'casino-seoul').map((row) => row.period))).toEqual(
      new Set(['2026-11-21']),
    );
  });

  it('takes one target for every command and another storm threshold', async () => {
    expect(await report({ by: 'day', targetMs: 500, stormAttempts: 2 })).toEqual(expected(written, 'day', 500, 2));
  });

  it('counts a time-out over target even when the target is above the call\u2019s limit', async () => {
    const rows = await report({ by: 'day', targetMs: 60_000, stormAttempts: 3 });
    expect(rows).toEqual(expected(written, 'day', 60_000, 3));
    for (const row of rows) expect(row.overTarget).toBe(row.answered === 0 ? null : row.timeouts / row.answered);
  });

  it('holds the edge cases the brief names: a retried win answered OK, storms, calls never answered', async () => {
    const retried = written.transactions.filter(
      (transaction) =>
        transaction.attempts.length === 2 &&
        transaction.attempts[0]?.answer?.kind === 'timeout' &&
        transaction.attempts[1]?.answer?.kind === 'ok',
    );
    expect(retried.length).toBeGreaterThan(0);
    const rows = await report({ by: 'day', stormAttempts: 3 });
    const sum = (key: 'retryStorms' | 'unanswered' | 'timeouts') => rows.reduce((total, row) => total + row[key], 0);
    expect(sum('retryStorms')).toBe(
      written.transactions.filter((transaction) => transaction.attempts.length >= 3).length,
    );
    expect(sum('unanswered')).toBe(
      written.transactions.flatMap((transaction) => transaction.attempts).filter((attempt) => !attempt.answer).length,
    );
    expect(sum('retryStorms')).toBeGreaterThan(0);
    expect(sum('unanswered')).toBeGreaterThan(0);
    expect(sum('timeouts')).toBeGreaterThan(0);
  });
});
