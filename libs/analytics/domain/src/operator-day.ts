/** The calendar day of an instant in an operator's time zone, cached per minute (Intl is slow per call). */
import { wallClockAt } from '@reelstream/contracts';

const MINUTE_MS = 60_000;
const pad = (value: number, width = 2) => String(value).padStart(width, '0');

export class OperatorDays {
  private readonly cache = new Map<string, Map<number, string>>();

  constructor(private readonly timeZoneOf: (operatorId: string) => string) {}

  timeZone(operatorId: string): string {
    return this.timeZoneOf(operatorId);
  }

  /** `YYYY-MM-DD` in the operator's zone. Every zone in use today changes offset on a whole minute. */
  dayOf(operatorId: string, epochMs: number): string {
    const zone = this.timeZoneOf(operatorId);
    let days = this.cache.get(zone);
    if (!days) {
      days = new Map();
      this.cache.set(zone, days);
    }
    const minute = Math.floor(epochMs / MINUTE_MS);
    let day = days.get(minute);
    if (day === undefined) {
      const clock = wallClockAt(minute * MINUTE_MS, zone);
      day = `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
      days.set(minute, day);
    }
    return day;
  }
}
