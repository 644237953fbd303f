/**
 * The calendar day of an instant in an operator's time zone, cached per quarter hour (Intl is slow
 * per call). Exact for every zone in use: their offsets and transitions fall on whole quarter hours.
 */
import { wallClockAt } from '@reelstream/contracts';

const QUARTER_HOUR_MS = 900_000;
const pad = (value: number, width = 2) => String(value).padStart(width, '0');

export class OperatorDays {
  private readonly cache = new Map<string, Map<number, string>>();

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
}
