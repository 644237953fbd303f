/**
 * The calendar day of an instant in an operator's time zone, cached per quarter hour (Intl is slow
 * per call). Exact for every zone in use: their offsets and transitions fall on whole quarter hours.
 */
import { wallClockAt } from '@reelstream/contracts';

const QUARTER_HOUR_MS = 900_000;
const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `YYYY-MM-DDTHH:00±HH:MM`: the hour in the zone, with the zone's offset then (a repeated DST hour is two hours). */
function hourLabel(quarterStartMs: number, zone: string): string {
  const clock = wallClockAt(quarterStartMs, zone);
  const offsetMinutes = Math.round(
    (Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - quarterStartMs) /
      60_000,
  );
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:00${offset}`;
}

export class OperatorDays {
  private readonly cache = new Map<string, Map<number, string>>();
  private readonly hourCache = new Map<string, Map<number, string>>();

  constructor(private readonly timeZoneOf: (operatorId: string) => string) {}

  timeZone(operatorId: string): string {
    return this.timeZoneOf(operatorId);
  }

  /** `YYYY-MM-DD` in the operator's zone. */
  dayOf(operatorId: string, epochMs: number): string {
    const zone = this.timeZoneOf(operatorId);
    let days = this.cache.get(zone);
    if (!days) {
      days = new Map();
      this.cache.set(zone, days);
    }
    const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
    let day = days.get(quarter);
    if (day === undefined) {
      const clock = wallClockAt(quarter * QUARTER_HOUR_MS, zone);
      day = `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
      days.set(quarter, day);
    }
    return day;
  }

  /** The hour in the operator's zone with its offset, `YYYY-MM-DDTHH:00±HH:MM`. */
  hourOf(operatorId: string, epochMs: number): string {
    const zone = this.timeZoneOf(operatorId);
    let hours = this.hourCache.get(zone);
    if (!hours) {
      hours = new Map();
      this.hourCache.set(zone, hours);
    }
    const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
    let hour = hours.get(quarter);
    if (hour === undefined) {
      hour = hourLabel(quarter * QUARTER_HOUR_MS, zone);
      hours.set(quarter, hour);
    }
    return hour;
  }

  /** The period of an instant by day or by hour (`--by`): dayOf or hourOf. */
  periodOf(operatorId: string, epochMs: number, by: 'hour' | 'day'): string {
    return by === 'hour' ? this.hourOf(operatorId, epochMs) : this.dayOf(operatorId, epochMs);
  }
}
