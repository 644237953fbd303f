/**
 * `--from`, `--to` and `--at`. A time without an offset is a wall-clock time in each operator's
 * own time zone (so `--from 2026-11-01` is midnight in Seoul for a Seoul operator and midnight in
 * London for a London one); a time with `Z` or an offset is one instant for everyone.
 * Accepted: `YYYY-MM-DD`, `YYYY-MM-DD HH:mm[:ss]`, `YYYY-MM-DDTHH:mm[:ss]`, and ISO-8601 with `Z`/`±HH:mm`.
 */
import { ReelstreamError, zonedLocalToInstant, type LocalDateTime } from '@reelstream/contracts';
import type { TimeRange } from '@reelstream/analytics-domain';

/** A --from/--to the command line cannot read: not retriable. */
export class TimeArgumentError extends ReelstreamError {
  override readonly name = 'TimeArgumentError';
  constructor(message: string) {
    super('VALIDATION_FAILED', message, { retriable: false });
  }
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const FORMATS = 'YYYY-MM-DD, YYYY-MM-DD HH:mm[:ss] (operator time zone) or an ISO-8601 instant with Z or ±HH:mm';

/** A parsed time argument: an instant, or a wall-clock time resolved per time zone. */
export type TimeArgument =
  { kind: 'instant'; ms: number } | { kind: 'local'; parts: LocalDateTime; dateOnly: boolean; text: string };

export function parseTimeArgument(option: string, text: string): TimeArgument {
  if (ABSOLUTE.test(text)) {
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) throw new TimeArgumentError(`${option} ${text} is not a valid instant`);
    return { kind: 'instant', ms };
  }
  const match = LOCAL.exec(text);
  if (!match) throw new TimeArgumentError(`${option} ${JSON.stringify(text)} is not a time: use ${FORMATS}`);
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const parts = { year, month, day, hour, minute, second } as LocalDateTime;
  // Validate the calendar fields once, in UTC: 2026-02-30 or 25:00 is wrong in every zone.
  const probe = new Date(Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second));
  if (
    probe.getUTCFullYear() !== parts.year ||
    probe.getUTCMonth() !== parts.month - 1 ||
    probe.getUTCDate() !== parts.day ||
    probe.getUTCHours() !== parts.hour ||
    probe.getUTCMinutes() !== parts.minute
  )
    throw new TimeArgumentError(`${option} ${JSON.stringify(text)} is not a calendar date and time`);
  return { kind: 'local', parts, dateOnly: match[4] === undefined, text };
}

/** The instant `argument` names in `timeZone`; a date alone as `--to` means the end of that day. */
export function instantIn(argument: TimeArgument, timeZone: string, endOfDay = false): number {
  if (argument.kind === 'instant') return argument.ms;
  let parts = argument.parts;
  if (endOfDay && argument.dateOnly) {
    const next = new Date(Date.UTC(parts.year, parts.month - 1, parts.day + 1));
    parts = { ...parts, year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
  }
  const resolved = zonedLocalToInstant(parts, timeZone);
  if (!resolved.ok) throw new TimeArgumentError(`${argument.text} in ${timeZone}: ${resolved.message}`);
  return resolved.instant.getTime();
}

/** `--from`/`--to` as a per-operator range; `--to` is exclusive, a date alone includes that whole day. */
export function rangeResolver(
  from: TimeArgument | undefined,
  to: TimeArgument | undefined,
  timeZoneOf: (operatorId: string) => string,
): (operatorId: string | undefined) => TimeRange {
  const cache = new Map<string, TimeRange>();
  return (operatorId) => {
    const zone = operatorId === undefined ? 'UTC' : timeZoneOf(operatorId);
    let range = cache.get(zone);
    if (!range) {
      range = {};
      if (from) range.fromMs = instantIn(from, zone);
      if (to) range.toMs = instantIn(to, zone, true);
      cache.set(zone, range);
    }
    return range;
  };
}

/** `today` and `yesterday`: the words a daily job passes instead of a date it would have to compute. */
const DAY_WORDS = ['today', 'yesterday'] as const;

/** The UTC calendar date `daysAgo` days before `nowMs`, `YYYY-MM-DD`. */
function utcDateBefore(nowMs: number, daysAgo: number): string {
  return new Date(nowMs - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/**
 * `today` / `yesterday` as the time argument they stand for: midnight starting that UTC calendar
 * date, as a wall-clock time (`YYYY-MM-DD 00:00`), so each operator's range starts at that midnight
 * in its own zone like any date. Midnight, not the whole day: `--from yesterday --to today` is
 * yesterday, and a checkpoint records the date, not the word. Any other text is returned as it is.
 */
export function resolveDayWord(text: string, nowMs: number): string {
  const daysAgo = DAY_WORDS.indexOf(text as (typeof DAY_WORDS)[number]);
  return daysAgo < 0 ? text : `${utcDateBefore(nowMs, daysAgo)} 00:00`;
}

/** `{today}` and `{yesterday}` in an output path, as their UTC dates (`/reports/{yesterday}/`). */
export function expandDatePlaceholders(path: string, nowMs: number): string {
  return path.replace(/\{(today|yesterday)\}/g, (_match, word: string) =>
    utcDateBefore(nowMs, word === 'today' ? 0 : 1),
  );
}
