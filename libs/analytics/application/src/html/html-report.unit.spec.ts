import { describe, expect, it } from '@jest/globals';
import type { AgentRow, GamePerformanceRow, Report, WalletDeliveryRow } from '@reelstream/analytics-domain';
import { headlines } from './html-report.js';
import { reportTable } from './html-tables.js';
import { ggrCharts, latencyChart } from './svg-charts.js';

const agentRow = (operatorId: string, day: string, currency: string, ggrMinor: number): AgentRow => ({
  operatorId,
  day,
  timeZone: 'UTC',
  currency,
  betsMinor: ggrMinor + 100,
  winsMinor: 100,
  ggrMinor,
  freeSpinWinsMinor: 0,
  bonusNotionalMinor: 10,
  bonusPaidMinor: 5,
  players: 2,
});

const game = (currency: string, turnoverMinor: number, winsMinor: number, theoreticalRtp: number) =>
  ({ currency, segment: 'standard', turnoverMinor, winsMinor, theoreticalRtp, rounds: 10 }) as GamePerformanceRow;

describe('headlines', () => {
  it('sums each currency apart, players from the period’s distinct count, RTP and target weighted by turnover', () => {
    const rows = [agentRow('a', '2026-01-01', 'EUR', 300), agentRow('a', '2026-01-02', 'EUR', -50)];
    const games = [
      game('EUR', 1000, 900, 0.96),
      game('EUR', 3000, 2700, 0.92),
      { ...game('EUR', 5000, 0, 0.5), segment: 'streamer' } as GamePerformanceRow,
    ];
    const [eur, krw, ...none] = headlines(
      [...rows, agentRow('b', '2026-01-01', 'KRW', 7000)],
      games,
      new Map([['EUR', 3]]),
    );
    expect(none).toEqual([]);
    expect(eur).toEqual({
      currency: 'EUR',
      ggrMinor: 250,
      bonusPaidMinor: 10,
      bonusNotionalMinor: 20,
      players: 3,
      rtp: 3600 / 4000,
      targetRtp: (0.96 * 1000 + 0.92 * 3000) / 4000,
      rounds: 20,
    });
    expect(krw).toMatchObject({ currency: 'KRW', ggrMinor: 7000, rtp: null, targetRtp: null, players: 0 });
  });
});

describe('the GGR charts', () => {
  it('draw one chart per currency whose axis holds every bar, a loss below zero', () => {
    const svg = ggrCharts([agentRow('a', '2026-01-01', 'EUR', 442), agentRow('b', '2026-01-01', 'KRW', -8260)]);
    expect([...svg.matchAll(/class="ggr-chart" data-currency="(\w+)"/g)].map((match) => match[1])).toEqual([
      'EUR',
      'KRW',
    ]);
    const krw = svg.slice(svg.indexOf('data-currency="KRW"'));
    const ticks = [...krw.matchAll(/class="tick" x="\d+" y="[\d.]+" text-anchor="end">(-?[\d,]+)</g)].map((m) =>
      Number(m[1]?.replace(/,/g, '')),
    );
    expect(Math.min(...ticks)).toBeLessThanOrEqual(-8260);
    expect(Math.max(...ticks)).toBeGreaterThanOrEqual(0);
  });
});

describe('the latency chart', () => {
  it('puts each percentile on a log axis of whole decades, one series per operator and command', () => {
    const row = (command: string, p50: number, max: number) =>
      ({
        operatorId: 'a',
        command,
        callbacks: 3,
        latencyP50Ms: p50,
        latencyP95Ms: p50,
        latencyP99Ms: max,
        latencyMaxMs: max,
      }) as WalletDeliveryRow;
    const svg = latencyChart([row('bet', 12, 3500), row('cancel', 0, 40)]);
    expect(svg).toContain('data-scale="log"');
    expect([...svg.matchAll(/data-ms="(\d+)" x=/g)].map((m) => Number(m[1]))).toEqual([1, 10, 100, 1000, 10000]);
    expect([...svg.matchAll(/class="series" data-operator="a" data-command="(\w+)"/g)].map((m) => m[1])).toEqual([
      'bet',
      'cancel',
    ]);
    expect(svg).toContain('a cancel p50: 0 ms (drawn at 1 ms)');
  });
});

describe('a report table', () => {
  it('shows the first rows and says how many more there are and where the full data is', () => {
    const report = {
      name: 'agent',
      title: 'Agent report',
      columns: [{ key: 'day', header: 'day', kind: 'text', description: '' }],
      rows: [{ day: '1' }, { day: '2' }, { day: '3' }],
      notes: [],
    } as unknown as Report;
    const html = reportTable(report, 2);
    expect(html.match(/<tr><td>/g)).toHaveLength(2);
    expect(html).toContain('data-left-out="1"');
    expect(html).toContain('First 2 of 3 rows: 1 more not shown');
    expect(reportTable(report, 3)).not.toContain('more not shown');
  });
});
