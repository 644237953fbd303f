/**
 * Wall-clock times of the API (`YYYY-MM-DD HH:mm:ss`, spec §2.1) and their conversion to UTC
 * instants in an operator's IANA time zone (decisions.md D5). Only `Intl` is used: the runtime's
 * time-zone database is the single source of truth, no library ships a second copy.
 */

export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export type LocalDateTimeResult = { ok: true; value: LocalDateTime } | { ok: false; reason: string };

export type ZonedInstantResult =
  { ok: true; instant: Date } | { ok: false; reason: 'unknown_time_zone' | 'nonexistent_local_time'; message: string };

const LOCAL_DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Parses exactly `YYYY-MM-DD HH:mm:ss` (24-hour clock, years 0001–9999) and refuses dates that
 * are not on the calendar (`2026-02-30`, hour 24, second 60: leap seconds are not wall-clock
 * times any time zone database knows).
 */
export function parseLocalDateTime(text: string): LocalDateTimeResult {
  const match = LOCAL_DATE_TIME_PATTERN.exec(text);
  if (!match) return { ok: false, reason: `"${text}" is not in the format YYYY-MM-DD HH:mm:ss` };
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1) return { ok: false, reason: `year ${year} is out of range 0001–9999` };
  if (month < 1 || month > 12) return { ok: false, reason: `month ${month} is out of range 01–12` };
  if (day < 1 || day > daysInMonth(year, month)) {
    return { ok: false, reason: `day ${day} does not exist in ${match[1]}-${match[2]}` };
  }
  if (hour > 23) return { ok: false, reason: `hour ${hour} is out of range 00–23` };
  if (minute > 59) return { ok: false, reason: `minute ${minute} is out of range 00–59` };
  if (second > 59) return { ok: false, reason: `second ${second} is out of range 00–59` };
  return { ok: true, value: { year, month, day, hour, minute, second } };
}

export function formatLocalDateTime(parts: LocalDateTime): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)} ${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}`;
}

/** The wall-clock parts read as if they were UTC, in epoch milliseconds (years < 100 included). */
function wallClockAsUtcMs(parts: LocalDateTime): number {
  const date = new Date(Date.UTC(2000, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second));
  date.setUTCFullYear(parts.year);
  return date.getTime();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const utcZones = new Map<string, boolean>();

/** True for a valid zone the runtime resolves to UTC itself (`UTC`, `Etc/UTC`, `GMT`, …). */
function isUtc(timeZone: string): boolean {
  let utc = utcZones.get(timeZone);
  if (utc === undefined) {
    utc = formatterFor(timeZone).resolvedOptions().timeZone === 'UTC';
    utcZones.set(timeZone, utc);
  }
  return utc;
}

/** True when the runtime's time-zone database knows `timeZone` (an IANA name such as `Asia/Seoul`, or `UTC`). */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone.trim() === '') return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time shown in `timeZone` at `epochMs`. */
export function wallClockAt(epochMs: number, timeZone: string): LocalDateTime {
  const fields: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) fields[part.type] = part.value;
  const yearOfEra = Number(fields.year);
  return {
    year: fields.era === 'BC' ? 1 - yearOfEra : yearOfEra,
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    second: Number(fields.second),
  };
}

/** Offset of `timeZone` from UTC at `epochMs`, in milliseconds (Seoul: +9 h). Whole seconds. */
function offsetMsAt(epochMs: number, timeZone: string): number {
  const wholeSecond = Math.floor(epochMs / 1000) * 1000;
  return wallClockAsUtcMs(wallClockAt(wholeSecond, timeZone)) - wholeSecond;
}

const DAY_MS = 86_400_000;

/**
 * The UTC instant at which clocks in `timeZone` show `parts`.
 * - A wall-clock time skipped by a forward transition (New York, 2026-03-08 02:30) does not
 *   exist: refused, because an expiry nobody's clock ever shows is an operator mistake.
 * - A time shown twice by a backward transition (New York, 2026-11-01 01:30) is ambiguous:
 *   the earlier instant is chosen, so a bonus never lives longer than the operator could mean.
 * Candidates come from the zone's offsets a day around the time (transitions are further apart
 * than that in every zone), each checked by formatting it back.
 */
export function zonedLocalToInstant(parts: LocalDateTime, timeZone: string): ZonedInstantResult {
  if (!isValidTimeZone(timeZone)) {
    return {
      ok: false,
      reason: 'unknown_time_zone',
      message: `"${timeZone}" is not a time zone known to this runtime`,
    };
  }
  const asUtc = wallClockAsUtcMs(parts);
  // UTC shows every wall-clock time exactly once, at offset 0: no formatting needed (it costs
  // about 40 µs a registration, and most operators run on UTC).
  if (isUtc(timeZone)) return { ok: true, instant: new Date(asUtc) };
  const offsets = new Set([-DAY_MS, 0, DAY_MS].map((delta) => offsetMsAt(asUtc + delta, timeZone)));
  const target = formatLocalDateTime(parts);
  const matches = [...offsets]
    .map((offset) => asUtc - offset)
    .filter((candidate) => formatLocalDateTime(wallClockAt(candidate, timeZone)) === target)
    .sort((a, b) => a - b);
  const earliest = matches[0];
  if (earliest === undefined) {
    return {
      ok: false,
      reason: 'nonexistent_local_time',
      message: `${target} does not exist in ${timeZone} (the clocks skip it)`,
    };
  }
  return { ok: true, instant: new Date(earliest) };
}

/** `parseLocalDateTime` then `zonedLocalToInstant`: one call for the API's `expireAt`. */
export function localDateTimeToInstant(
  text: string,
  timeZone: string,
): ZonedInstantResult | { ok: false; reason: 'invalid_format'; message: string } {
  const parsed = parseLocalDateTime(text);
  if (!parsed.ok) return { ok: false, reason: 'invalid_format', message: parsed.reason };
  return zonedLocalToInstant(parsed.value, timeZone);
}
