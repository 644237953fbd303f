/** The formats print money by its currency's exponent and quote CSV fields; time arguments read in each operator's zone. */
import { describe, expect, it } from '@jest/globals';
import type { Report } from '@reelstream/analytics-domain';
import { render, renderCsv } from './formats.js';
import {
  expandDatePlaceholders,
  instantIn,
  parseTimeArgument,
  rangeResolver,
  resolveDayWord,
  TimeArgumentError,
} from './time-range.js';

const report: Report = {
  name: 'agent',
  title: 'Agent report',
  columns: [
    { key: 'operatorId', header: 'operator', kind: 'text', description: '' },
    { key: 'currency', header: 'currency', kind: 'text', description: '' },
    { key: 'betsMinor', header: 'bets', kind: 'money', description: '' },
    { key: 'rtp', header: 'rtp', kind: 'ratio', description: '' },
  ] as unknown as Report['columns'],
  rows: [
    { operatorId: 'casino, "quoted"', currency: 'EUR', betsMinor: 123456, rtp: 0.96123 },
    { operatorId: 'seoul', currency: 'KRW', betsMinor: 1200, rtp: null },
    { operatorId: 'kuwait', currency: 'KWD', betsMinor: 1, rtp: 1 },
  ],
  notes: ['a note'],
};

describe('formats', () => {
  it('writes RFC 4180 CSV with money in each currency’s exponent', () => {
    expect(renderCsv(report)).toBe(
      'operator,currency,bets,rtp\r\n"casino, ""quoted""",EUR,1234.56,0.9612\r\nseoul,KRW,1200,\r\nkuwait,KWD,0.001,1.0000\r\n',
    );
  });

  it('keeps money a decimal string in JSON and null as null', () => {
    const rows = (JSON.parse(render([report], 'json')) as { agent: { rows: unknown[] } }).agent.rows;
    expect(rows).toEqual([
      { operator: 'casino, "quoted"', currency: 'EUR', bets: '1234.56', rtp: 0.96123 },
      { operator: 'seoul', currency: 'KRW', bets: '1200', rtp: null },
      { operator: 'kuwait', currency: 'KWD', bets: '0.001', rtp: 1 },
    ]);
  });

  it('right-aligns numbers in a table and prints the notes under it', () => {
    const lines = render([report], 'table').split('\n');
    expect(lines[0]).toBe('Agent report (3 rows)');
    expect(lines[3]).toMatch(/^casino, "quoted"\s+EUR\s+1234\.56\s+0\.9612$/);
    expect(lines[4]).toMatch(/^seoul\s+KRW\s+1200$/);
    expect(lines).toContain('note: a note');
  });
});

describe('time arguments', () => {
  it('reads a wall-clock time in the zone asked, an instant the same everywhere', () => {
    const local = parseTimeArgument('--from', '2026-11-21');
    expect(new Date(instantIn(local, 'Asia/Seoul')).toISOString()).toBe('2026-11-20T15:00:00.000Z');
    expect(new Date(instantIn(local, 'Europe/Berlin')).toISOString()).toBe('2026-11-20T23:00:00.000Z');
    expect(new Date(instantIn(local, 'Asia/Seoul', true)).toISOString()).toBe('2026-11-21T15:00:00.000Z');
    const minutes = parseTimeArgument('--from', '2026-11-21T10:30');
    expect(new Date(instantIn(minutes, 'UTC', true)).toISOString()).toBe('2026-11-21T10:30:00.000Z');
    const instant = parseTimeArgument('--at', '2026-11-21T10:30:00+09:00');
    expect(new Date(instantIn(instant, 'Europe/Berlin')).toISOString()).toBe('2026-11-21T01:30:00.000Z');
  });

  it('gives each operator its own range', () => {
    const zones: Record<string, string> = { seoul: 'Asia/Seoul', ny: 'America/New_York' };
    const rangeOf = rangeResolver(
      parseTimeArgument('--from', '2026-12-31'),
      parseTimeArgument('--to', '2026-12-31'),
      (id) => zones[id] ?? 'UTC',
    );
    expect(rangeOf('seoul')).toEqual({
      fromMs: Date.parse('2026-12-30T15:00:00Z'),
      toMs: Date.parse('2026-12-31T15:00:00Z'),
    });
    expect(rangeOf('ny')).toEqual({
      fromMs: Date.parse('2026-12-31T05:00:00Z'),
      toMs: Date.parse('2027-01-01T05:00:00Z'),
    });
  });

  it.each(['21/11/2026', '2026-11-21 25:00', '2026-02-30', '2026-11-21T10:30:00+9', 'yesterday', ''])(
    'refuses %j',
    (text) => expect(() => parseTimeArgument('--from', text)).toThrow(TimeArgumentError),
  );

  it('refuses a wall-clock time the zone skips', () => {
    const skipped = parseTimeArgument('--from', '2026-03-08 02:30');
    expect(() => instantIn(skipped, 'America/New_York')).toThrow(/does not exist in America\/New_York/);
  });
});

describe('today and yesterday', () => {
  // 00:30 UTC on 28 November: already the 28th in Seoul, still the 27th in New York.
  const now = Date.parse('2026-11-28T00:30:00Z');

  it('stand for midnight starting that UTC date, resolved in each operator\u2019s zone like a date', () => {
    expect(resolveDayWord('yesterday', now)).toBe('2026-11-27 00:00');
    expect(resolveDayWord('today', now)).toBe('2026-11-28 00:00');
    expect(resolveDayWord('2026-11-01', now)).toBe('2026-11-01');
    const range = rangeResolver(
      parseTimeArgument('--from', resolveDayWord('yesterday', now)),
      parseTimeArgument('--to', resolveDayWord('today', now)),
      (operatorId) => (operatorId === 'seoul' ? 'Asia/Seoul' : 'America/New_York'),
    );
    // Exactly the 27th in each zone: `--to today` is midnight, not the end of today.
    expect(range('seoul')).toEqual({
      fromMs: Date.parse('2026-11-26T15:00:00Z'),
      toMs: Date.parse('2026-11-27T15:00:00Z'),
    });
    expect(range('ny')).toEqual({
      fromMs: Date.parse('2026-11-27T05:00:00Z'),
      toMs: Date.parse('2026-11-28T05:00:00Z'),
    });
  });

  it('fill {today} and {yesterday} in output paths, across a month end', () => {
    expect(expandDatePlaceholders('/reports/{yesterday}/x-{today}', now)).toBe('/reports/2026-11-27/x-2026-11-28');
    expect(expandDatePlaceholders('/reports/{yesterday}/', Date.parse('2026-12-01T12:00:00Z'))).toBe(
      '/reports/2026-11-30/',
    );
    expect(expandDatePlaceholders('/reports/{date}/', now)).toBe('/reports/{date}/');
  });
});
