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

/** `YYYY-MM-DD`: the day in the zone. */
function dayLabel(quarterStartMs: number, zone: string): string {
  const clock = wallClockAt(quarterStartMs, zone);
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
}

/** A label of an instant in a zone, computed once per zone and quarter hour. */
class QuarterHourLabels {
  private readonly byZone = new Map<string, Map<number, string>>();

  constructor(private readonly label: (quarterStartMs: number, zone: string) => string) {}

  of(zone: string, epochMs: number): string {
    let labels = this.byZone.get(zone);
    if (!labels) {
      labels = new Map();
      this.byZone.set(zone, labels);
    }
    const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
    let label = labels.get(quarter);
    if (label === undefined) {
      label = this.label(quarter * QUARTER_HOUR_MS, zone);
      labels.set(quarter, label);
    }
    return label;
  }
}

export class OperatorDays {
  private readonly days = new QuarterHourLabels(dayLabel);
  private readonly hours = new QuarterHourLabels(hourLabel);

  constructor(private readonly timeZoneOf: (operatorId: string) => string) {}

  timeZone(operatorId: string): string {
    return this.timeZoneOf(operatorId);
  }

  /** `YYYY-MM-DD` in the operator's zone. */
  dayOf(operatorId: string, epochMs: number): string {
    return this.days.of(this.timeZoneOf(operatorId), epochMs);
  }

  /** The hour in the operator's zone with its offset, `YYYY-MM-DDTHH:00±HH:MM`. */
  hourOf(operatorId: string, epochMs: number): string {
    return this.hours.of(this.timeZoneOf(operatorId), epochMs);
  }

  /** The period of an instant by day or by hour (`--by`): dayOf or hourOf. */
  periodOf(operatorId: string, epochMs: number, by: 'hour' | 'day'): string {
    return by === 'hour' ? this.hourOf(operatorId, epochMs) : this.dayOf(operatorId, epochMs);
  }
}
