import type { Database, Statement } from 'better-sqlite3';
import { categoryOf, type Direction, type RecordedEvent, type StreamFilter } from '@reelstream/platform-ports';
import { eventColumns, toRecordedEvent, type EventRow } from './rows.js';

/** Upper bound for "from the end" reads; rowids and revisions never reach it. */
export const END = Number.MAX_SAFE_INTEGER;

interface PrefixParams {
  from: number;
  limit: number;
  prefix: string;
  category?: string;
}

/** Prepared read statements over `es_events`. `limit` -1 means no limit (SQLite). */
export class EventReader {
  private readonly stream: Record<Direction, Statement<[string, number, number], EventRow>>;
  private readonly all: Record<Direction, Statement<[number, number], EventRow>>;
  /** Prefix with a '-': a range of the (category, position) index, then a check of the full prefix. */
  private readonly inCategory: Record<Direction, Statement<[PrefixParams], EventRow>>;
  /** Prefix without a '-': no category to use, so a walk along positions with the prefix check. */
  private readonly byPrefix: Record<Direction, Statement<[PrefixParams], EventRow>>;
  private readonly revision: Statement<[string], number>;
  private readonly maxPosition: Statement<[], number | null>;

  constructor(db: Database) {
    // Rows as arrays (EventRow): see there why.
    const prepare = <Params extends unknown[]>(sql: string) => db.prepare<Params, EventRow>(sql).raw(true);
    const prefixMatches = 'substr(stream_id, 1, length(@prefix)) = @prefix';
    this.stream = {
      forwards: prepare(
        `SELECT ${eventColumns} FROM es_events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      ),
      backwards: prepare(
        `SELECT ${eventColumns} FROM es_events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
      ),
    };
    this.all = {
      forwards: prepare(`SELECT ${eventColumns} FROM es_events WHERE position > ? ORDER BY position LIMIT ?`),
      backwards: prepare(`SELECT ${eventColumns} FROM es_events WHERE position < ? ORDER BY position DESC LIMIT ?`),
    };
    this.inCategory = {
      forwards: prepare(
        `SELECT ${eventColumns} FROM es_events INDEXED BY es_events_by_category
         WHERE category = @category AND position > @from AND ${prefixMatches} ORDER BY position LIMIT @limit`,
      ),
      backwards: prepare(
        `SELECT ${eventColumns} FROM es_events INDEXED BY es_events_by_category
         WHERE category = @category AND position < @from AND ${prefixMatches} ORDER BY position DESC LIMIT @limit`,
      ),
    };
    this.byPrefix = {
      forwards: prepare(
        `SELECT ${eventColumns} FROM es_events WHERE position > @from AND ${prefixMatches} ORDER BY position LIMIT @limit`,
      ),
      backwards: prepare(
        `SELECT ${eventColumns} FROM es_events WHERE position < @from AND ${prefixMatches} ORDER BY position DESC LIMIT @limit`,
      ),
    };
    this.maxPosition = db.prepare<[], number | null>('SELECT max(position) FROM es_events').pluck();
    this.revision = db
      .prepare<[string], number>('SELECT revision FROM es_events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1')
      .pluck();
  }

  readStream(streamId: string, direction: Direction, fromRevision: number | undefined, limit: number): RecordedEvent[] {
    const from = fromRevision ?? (direction === 'forwards' ? 0 : END);
    return this.stream[direction].all(streamId, from, limit).map(toRecordedEvent);
  }

  streamRevision(streamId: string): number | undefined {
    return this.revision.get(streamId);
  }

  /** Position of the newest event, 0 when the store is empty. */
  lastPosition(): number {
    return this.maxPosition.get() ?? 0;
  }

  /** Events after (forwards) or before (backwards) the exclusive position `from`, filtered. */
  readAll(direction: Direction, from: number, limit: number, filter: StreamFilter | undefined): RecordedEvent[] {
    const prefixes = filter?.streamPrefixes;
    if (prefixes === undefined) return this.all[direction].all(from, limit).map(toRecordedEvent);

    // One indexed query per prefix, each bounded by the limit, merged by position.
    const rows = new Map<number, EventRow>();
    for (const prefix of new Set(prefixes)) {
      const category = categoryOf(prefix);
      const found =
        category === ''
          ? this.byPrefix[direction].all({ from, limit, prefix })
          : this.inCategory[direction].all({ from, limit, prefix, category });
      for (const row of found) rows.set(row[0], row);
    }
    const ordered = [...rows.values()].sort(direction === 'forwards' ? (a, b) => a[0] - b[0] : (a, b) => b[0] - a[0]);
    return (limit < 0 ? ordered : ordered.slice(0, limit)).map(toRecordedEvent);
  }
}
