import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  formatLocalDateTime,
  isValidTimeZone,
  localDateTimeToInstant,
  parseLocalDateTime,
  wallClockAt,
  zonedLocalToInstant,
  type LocalDateTime,
} from './time.js';

function instantOf(text: string, zone: string): string {
  const result = localDateTimeToInstant(text, zone);
  if (!result.ok) throw new Error(`${text} in ${zone}: ${result.message}`);
  return result.instant.toISOString();
}

describe('parseLocalDateTime: exactly YYYY-MM-DD HH:mm:ss on the calendar (spec §2.1)', () => {
  it('parses a valid wall-clock time into its parts', () => {
    expect(parseLocalDateTime('2026-06-30 23:59:59')).toEqual({
      ok: true,
      value: { year: 2026, month: 6, day: 30, hour: 23, minute: 59, second: 59 },
    });
  });

  it.each([
    '2028-02-29 00:00:00',
    '2000-02-29 12:00:00',
    '2026-12-31 23:59:59',
    '2026-01-01 00:00:00',
    '0001-01-01 00:00:00',
  ])('accepts %s', (text) => {
    expect(parseLocalDateTime(text).ok).toBe(true);
  });

  it.each([
    ['2026-02-30 10:00:00', /day 30 does not exist/],
    ['2026-02-29 10:00:00', /day 29 does not exist/],
    ['1900-02-29 10:00:00', /day 29 does not exist/],
    ['2026-04-31 10:00:00', /day 31/],
    ['2026-13-01 10:00:00', /month 13/],
    ['2026-00-01 10:00:00', /month 0/],
    ['2026-01-00 10:00:00', /day 0/],
    ['2026-01-01 24:00:00', /hour 24/],
    ['2026-01-01 23:60:00', /minute 60/],
    ['2026-01-01 23:59:60', /second 60/],
    ['0000-01-01 00:00:00', /year 0/],
  ])('refuses %s', (text, reason) => {
    const result = parseLocalDateTime(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });

  it.each([
    '2026-01-01T10:00:00',
    '2026-01-01 10:00',
    '2026-1-01 10:00:00',
    '2026-01-01 10:00:00Z',
    ' 2026-01-01 10:00:00',
    '2026-01-01  10:00:00',
    '',
  ])('refuses the format of %j', (text) => {
    const result = parseLocalDateTime(text);
    expect(!result.ok && result.reason).toMatch(/not in the format YYYY-MM-DD HH:mm:ss/);
  });

  it('formats parts back to the same text (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        (date) => {
          const text = date.toISOString().slice(0, 19).replace('T', ' ');
          const parsed = parseLocalDateTime(text);
          expect(parsed.ok && formatLocalDateTime(parsed.value)).toBe(text);
        },
      ),
    );
  });
});

describe('isValidTimeZone: IANA zones known to Intl (docs/configuration.md timeZone)', () => {
  it.each(['UTC', 'Asia/Seoul', 'America/New_York', 'Europe/London'])('knows %s', (zone) =>
    expect(isValidTimeZone(zone)).toBe(true),
  );
  it.each(['Mars/Base', 'Asia/Seol', '', ' ', 'EST5EDT/Nowhere'])('refuses %j', (zone) =>
    expect(isValidTimeZone(zone)).toBe(false),
  );
});

describe('zonedLocalToInstant: the operator zone decides expireAt (decisions.md D5)', () => {
  it('UTC: the wall-clock time is the instant', () => {
    expect(instantOf('2026-05-01 12:00:00', 'UTC')).toBe('2026-05-01T12:00:00.000Z');
  });

  it('Asia/Seoul: nine hours ahead all year', () => {
    expect(instantOf('2026-05-01 09:00:00', 'Asia/Seoul')).toBe('2026-05-01T00:00:00.000Z');
    expect(instantOf('2026-01-01 00:00:00', 'Asia/Seoul')).toBe('2025-12-31T15:00:00.000Z');
  });

  it('America/New_York: EST in winter, EDT in summer', () => {
    expect(instantOf('2026-01-15 10:00:00', 'America/New_York')).toBe('2026-01-15T15:00:00.000Z');
    expect(instantOf('2026-07-15 10:00:00', 'America/New_York')).toBe('2026-07-15T14:00:00.000Z');
  });

  it('America/New_York spring forward: 02:00–02:59 on 2026-03-08 does not exist and is refused', () => {
    expect(instantOf('2026-03-08 01:59:59', 'America/New_York')).toBe('2026-03-08T06:59:59.000Z');
    expect(instantOf('2026-03-08 03:00:00', 'America/New_York')).toBe('2026-03-08T07:00:00.000Z');
    for (const text of ['2026-03-08 02:00:00', '2026-03-08 02:30:00', '2026-03-08 02:59:59']) {
      const result = localDateTimeToInstant(text, 'America/New_York');
      expect(result).toEqual({
        ok: false,
        reason: 'nonexistent_local_time',
        message: `${text} does not exist in America/New_York (the clocks skip it)`,
      });
    }
  });

  it('America/New_York fall back: 01:30 on 2026-11-01 happens twice, the earlier (EDT) instant is chosen', () => {
    expect(instantOf('2026-11-01 01:30:00', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(instantOf('2026-11-01 00:59:59', 'America/New_York')).toBe('2026-11-01T04:59:59.000Z');
    expect(instantOf('2026-11-01 02:00:00', 'America/New_York')).toBe('2026-11-01T07:00:00.000Z');
  });

  it('Europe/London: GMT in winter, BST in summer, gap on 2026-03-29 01:xx, overlap on 2026-10-25 01:xx', () => {
    expect(instantOf('2026-01-10 12:00:00', 'Europe/London')).toBe('2026-01-10T12:00:00.000Z');
    expect(instantOf('2026-07-01 12:00:00', 'Europe/London')).toBe('2026-07-01T11:00:00.000Z');
    expect(instantOf('2026-03-29 00:59:59', 'Europe/London')).toBe('2026-03-29T00:59:59.000Z');
    expect(localDateTimeToInstant('2026-03-29 01:30:00', 'Europe/London')).toMatchObject({
      ok: false,
      reason: 'nonexistent_local_time',
    });
    expect(instantOf('2026-03-29 02:00:00', 'Europe/London')).toBe('2026-03-29T01:00:00.000Z');
    expect(instantOf('2026-10-25 01:30:00', 'Europe/London')).toBe('2026-10-25T00:30:00.000Z');
    expect(instantOf('2026-10-25 02:00:00', 'Europe/London')).toBe('2026-10-25T02:00:00.000Z');
  });

  it('refuses an unknown zone and a malformed text', () => {
    expect(
      zonedLocalToInstant({ year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0 }, 'Mars/Base'),
    ).toMatchObject({ ok: false, reason: 'unknown_time_zone' });
    expect(localDateTimeToInstant('2026-02-30 10:00:00', 'UTC')).toMatchObject({ ok: false, reason: 'invalid_format' });
  });

  it('every instant it returns shows the requested wall-clock time in that zone (property)', () => {
    const zones = ['UTC', 'Asia/Seoul', 'America/New_York', 'Europe/London'];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        (date, zone) => {
          const parts: LocalDateTime = wallClockAt(date.getTime(), zone);
          const result = zonedLocalToInstant(parts, zone);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(wallClockAt(result.instant.getTime(), zone)).toEqual(parts);
          // The earlier of two candidates is never after the instant the parts were read from.
          expect(result.instant.getTime()).toBeLessThanOrEqual(Math.floor(date.getTime() / 1000) * 1000);
        },
      ),
    );
  });

  it('in UTC every calendar time maps to itself (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        (date) => {
          const text = date.toISOString().slice(0, 19).replace('T', ' ');
          expect(instantOf(text, 'UTC')).toBe(`${date.toISOString().slice(0, 19)}.000Z`);
          // The names the runtime resolves to UTC take the same shortcut, with the same answer.
          for (const alias of ['Etc/UTC', 'GMT']) expect(instantOf(text, alias)).toBe(instantOf(text, 'UTC'));
        },
      ),
    );
  });
});
