/** Which events a replay keeps (`--operator`, `--player`, `--game`, `--provider`, `--category`, `--from/--to`, `--at`). */
import type { StreamCategory } from '@reelstream/contracts';
import type { CampaignFacts } from './campaigns.js';
import type { LogEvent, Subject } from './log-index.js';

/** An instant range in epoch ms: `from` inclusive, `to` exclusive. */
export interface TimeRange {
  fromMs?: number;
  toMs?: number;
}

export interface ReplayFilter {
  operatorId?: string;
  playerId?: string;
  gameId?: number;
  providerId?: number;
  categories?: readonly StreamCategory[];
  /**
   * The range for an operator: `--from/--to` are wall-clock times in each operator's own time
   * zone, so the instants differ per operator. Undefined: no range.
   */
  rangeOf?: (operatorId: string | undefined) => TimeRange;
  /** `--at`: only events that occurred at or before this instant (the state as of then). */
  atMs?: number;
}

/**
 * Whether an event counts. A subject field the log does not tell (a player filter on an event
 * that names none) fails the filter: an unknown player is not the asked one. A bonus call (its
 * registration and end) passes a game filter when the game is one of those it names.
 */
export function passes(filter: ReplayFilter, entry: LogEvent, subject: Subject): boolean {
  if (filter.atMs !== undefined && entry.occurredAtMs > filter.atMs) return false;
  if (filter.categories && (entry.category === undefined || !filter.categories.includes(entry.category))) return false;
  if (filter.operatorId !== undefined && subject.operatorId !== filter.operatorId) return false;
  if (filter.playerId !== undefined && subject.playerId !== filter.playerId) return false;
  if (filter.gameId !== undefined && subject.gameId !== filter.gameId && !subject.gameIds?.includes(filter.gameId))
    return false;
  if (filter.providerId !== undefined && subject.providerId !== filter.providerId) return false;
  if (filter.rangeOf) {
    const { fromMs, toMs } = filter.rangeOf(subject.operatorId);
    if (fromMs !== undefined && entry.occurredAtMs < fromMs) return false;
    if (toMs !== undefined && entry.occurredAtMs >= toMs) return false;
  }
  return true;
}

/**
 * Whether a campaign stream's event counts, for one of the players it names (`playerId`) or for
 * the campaign as a whole (undefined: fails a player filter). A campaign is about its operator, the
 * provider of its terms and each of its games. Campaign streams have no StreamCategory: a
 * `--category` filter leaves them out.
 */
export function passesCampaign(
  filter: ReplayFilter,
  entry: { occurredAtMs: number; operatorId: string },
  facts: CampaignFacts | undefined,
  playerId: string | undefined,
): boolean {
  if (filter.atMs !== undefined && entry.occurredAtMs > filter.atMs) return false;
  if (filter.categories) return false;
  if (filter.operatorId !== undefined && entry.operatorId !== filter.operatorId) return false;
  if (filter.playerId !== undefined && playerId !== filter.playerId) return false;
  if (filter.gameId !== undefined && !facts?.gameIds.includes(filter.gameId)) return false;
  if (filter.providerId !== undefined && facts?.providerId !== filter.providerId) return false;
  if (filter.rangeOf) {
    const { fromMs, toMs } = filter.rangeOf(entry.operatorId);
    if (fromMs !== undefined && entry.occurredAtMs < fromMs) return false;
    if (toMs !== undefined && entry.occurredAtMs >= toMs) return false;
  }
  return true;
}
