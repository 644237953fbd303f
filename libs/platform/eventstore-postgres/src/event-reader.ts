import type pg from 'pg';
import { ReelstreamError } from '@reelstream/contracts';
import { categoryOf, type Direction, type RecordedEvent, type StreamFilter } from '@reelstream/platform-ports';
import { EVENT_COLUMNS, toRecordedEvent, type EventRow } from './rows.js';
import type { PostgresPosition } from './positions.js';
import type { Tables } from './schema.js';

/**
 * What a reader of $all may see: the events of transactions below `watermark` (the oldest
 * transaction still running when it was taken), up to `head`, the last of them. `watermark` is
 * undefined only in the store's test-only mode without it.
 */
export interface VisibleSnapshot {
  watermark: string | undefined;
  head: PostgresPosition | undefined;
}

/** A transaction older than the newest committed event kept running past the read's patience. */
class UnsettledReadError extends ReelstreamError {
  override readonly name = 'UnsettledReadError';
  constructor(newest: string, watermark: string, timeoutMs: number) {
    super(
      'SERVICE_UNAVAILABLE',
      `$all is not settled after ${timeoutMs} ms: a transaction older than ${newest} (the oldest running is ${watermark}) is still running on the server`,
      { retriable: true },
    );
  }
}

interface Bound {
  /** Exclusive: after it (forwards) or before it (backwards). */
  from: PostgresPosition | undefined;
  /** Null: no limit. */
  limit: number | null;
}

/** The read queries of `es_events` on a pool. */
export class EventReader {
  constructor(
    private readonly pool: pg.Pool,
    private readonly tables: Tables,
    /** False only in the store's test-only mode that reads $all without the watermark. */
    private readonly watermarked: boolean,
  ) {}

  async readStream(
    streamId: string,
    direction: Direction,
    fromRevision: number | undefined,
    limit: number | null,
  ): Promise<RecordedEvent[]> {
    const forwards = direction === 'forwards';
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ${this.tables.events} WHERE stream_id = $1 AND revision ${forwards ? '>=' : '<='} $2
       ORDER BY es_events.revision ${forwards ? 'ASC' : 'DESC'} LIMIT $3`,
      [streamId, fromRevision ?? (forwards ? 0 : Number.MAX_SAFE_INTEGER), limit],
    );
    return rows.map(toRecordedEvent);
  }

  async streamRevision(streamId: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ revision: string | null }>(
      `SELECT max(revision)::text AS revision FROM ${this.tables.events} WHERE stream_id = $1`,
      [streamId],
    );
    const revision = rows[0]?.revision;
    return revision === null || revision === undefined ? undefined : Number(revision);
  }

  /** The watermark and the last event below it, taken in one statement (one snapshot). */
  async snapshot(): Promise<VisibleSnapshot> {
    const { rows } = await this.pool.query<{ watermark: string | null; t: string | null; p: string | null }>(
      this.watermarked
        ? `WITH w AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
           SELECT w.xmin::text AS watermark, h.transaction_id::text AS t, h.position::text AS p
           FROM w LEFT JOIN LATERAL (
             SELECT transaction_id, position FROM ${this.tables.events} WHERE transaction_id < w.xmin
             ORDER BY transaction_id DESC, position DESC LIMIT 1
           ) h ON true`
        : `SELECT NULL AS watermark, transaction_id::text AS t, position::text AS p FROM ${this.tables.events}
           ORDER BY transaction_id DESC, position DESC LIMIT 1`,
    );
    const row = rows[0];
    return {
      watermark: row?.watermark ?? undefined,
      head: row?.t && row.p ? { transactionId: BigInt(row.t), sequence: BigInt(row.p) } : undefined,
    };
  }

  /**
   * A watermark past every event committed when this was called: polls until the transactions
   * still running below the newest committed event have ended. Undefined in the mode without the
   * watermark. Throws after `timeoutMs` rather than hand out a read cut short.
   */
  async settledWatermark(timeoutMs: number): Promise<string | undefined> {
    if (!this.watermarked) return undefined;
    const deadline = Date.now() + timeoutMs;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      const { rows } = await this.pool.query<{ watermark: string; newest: string | null }>(
        `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS watermark,
                (SELECT transaction_id FROM ${this.tables.events} ORDER BY transaction_id DESC LIMIT 1)::text AS newest`,
      );
      const row = rows[0];
      if (!row) throw new Error('the watermark query returned no row');
      if (row.newest === null || BigInt(row.newest) < BigInt(row.watermark)) return row.watermark;
      if (Date.now() > deadline) throw new UnsettledReadError(row.newest, row.watermark, timeoutMs);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /**
   * Events of $all after (forwards) or before (backwards) `bound.from`, below the watermark,
   * filtered: one indexed query per prefix, each bounded by the limit, merged in order.
   */
  async readAll(
    direction: Direction,
    bound: Bound,
    filter: StreamFilter | undefined,
    watermark: string | undefined,
  ): Promise<RecordedEvent[]> {
    const prefixes = filter?.streamPrefixes;
    if (prefixes === undefined) return (await this.query(direction, bound, watermark, undefined)).map(toRecordedEvent);
    const found = await Promise.all(
      [...new Set(prefixes)].map((prefix) => this.query(direction, bound, watermark, prefix)),
    );
    const rows = new Map<string, EventRow>();
    for (const row of found.flat()) rows.set(row.position, row);
    const ordered = [...rows.values()].sort(direction === 'forwards' ? compareRows : (a, b) => compareRows(b, a));
    return (bound.limit === null ? ordered : ordered.slice(0, bound.limit)).map(toRecordedEvent);
  }

  private async query(
    direction: Direction,
    bound: Bound,
    watermark: string | undefined,
    prefix: string | undefined,
  ): Promise<EventRow[]> {
    const forwards = direction === 'forwards';
    const conditions: string[] = [];
    const values: unknown[] = [];
    const value = (v: unknown) => `$${values.push(v)}`;
    if (bound.from)
      conditions.push(
        `(transaction_id, position) ${forwards ? '>' : '<'} (${value(String(bound.from.transactionId))}::xid8, ${value(String(bound.from.sequence))}::bigint)`,
      );
    if (watermark !== undefined) conditions.push(`transaction_id < ${value(watermark)}::xid8`);
    else if (this.watermarked) conditions.push('transaction_id < pg_snapshot_xmin(pg_current_snapshot())');
    if (prefix !== undefined) {
      const category = categoryOf(prefix);
      if (category !== '') conditions.push(`category = ${value(category)}`);
      conditions.push(`starts_with(stream_id, ${value(prefix)})`);
    }
    const order = forwards ? 'ASC' : 'DESC';
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ${this.tables.events} ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
       ORDER BY ${prefix !== undefined && categoryOf(prefix) !== '' ? `es_events.category ${order}, ` : ''}es_events.transaction_id ${order}, es_events.position ${order}
       LIMIT ${value(bound.limit)}`,
      values,
    );
    return rows;
  }
}

function compareRows(a: EventRow, b: EventRow): number {
  const at = BigInt(a.transaction_id);
  const bt = BigInt(b.transaction_id);
  if (at !== bt) return at < bt ? -1 : 1;
  const ap = BigInt(a.position);
  const bp = BigInt(b.position);
  return ap < bp ? -1 : ap > bp ? 1 : 0;
}
