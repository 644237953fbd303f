/** Days in an operator's zone from the quarter-hour cache: exact at midnight in half- and quarter-hour zones. */
import { describe, expect, it } from '@jest/globals';
import { OperatorDays } from './operator-day.js';

describe('OperatorDays', () => {
  it.each([
    ['Asia/Kolkata', '2026-11-20T18:29:59.999Z', '2026-11-20', '2026-11-20T18:30:00.000Z', '2026-11-21'],
    ['Asia/Kathmandu', '2026-11-20T18:14:59.999Z', '2026-11-20', '2026-11-20T18:15:00.000Z', '2026-11-21'],
    ['America/New_York', '2026-03-08T04:59:59.999Z', '2026-03-07', '2026-03-08T05:00:00.000Z', '2026-03-08'],
    ['Asia/Seoul', '2026-11-20T14:59:59.999Z', '2026-11-20', '2026-11-20T15:00:00.000Z', '2026-11-21'],
  ])('switches day at local midnight in %s', (zone, before, dayBefore, after, dayAfter) => {
    const days = new OperatorDays(() => zone);
    // Both orders: the cache must not carry one bucket's day into the next.
    expect([days.dayOf('op', Date.parse(before)), days.dayOf('op', Date.parse(after))]).toEqual([dayBefore, dayAfter]);
    const reversed = new OperatorDays(() => zone);
    expect([reversed.dayOf('op', Date.parse(after)), reversed.dayOf('op', Date.parse(before))]).toEqual([
      dayAfter,
      dayBefore,
    ]);
  });
});

describe('OperatorDays.hourOf', () => {
  it('names the hour in the zone with its offset: the repeated hour of a DST change is two hours', () => {
    const hours = new OperatorDays(() => 'Europe/Berlin');
    expect(hours.hourOf('op', Date.parse('2026-10-25T00:30:00.000Z'))).toBe('2026-10-25T02:00+02:00');
    expect(hours.hourOf('op', Date.parse('2026-10-25T01:30:00.000Z'))).toBe('2026-10-25T02:00+01:00');
    expect(hours.hourOf('op', Date.parse('2026-11-20T22:59:59.999Z'))).toBe('2026-11-20T23:00+01:00');
    expect(hours.hourOf('op', Date.parse('2026-11-20T23:00:00.000Z'))).toBe('2026-11-21T00:00+01:00');
  });

  it('keeps quarter-hour offsets', () => {
    const hours = new OperatorDays(() => 'Asia/Kathmandu');
    expect(hours.hourOf('op', Date.parse('2026-11-20T18:14:59.999Z'))).toBe('2026-11-20T23:00+05:45');
    expect(hours.hourOf('op', Date.parse('2026-11-20T18:15:00.000Z'))).toBe('2026-11-21T00:00+05:45');
  });
});
