import type pg from 'pg';
import { ReelstreamError } from '@reelstream/contracts';
import { WrongExpectedRevisionError, type AppendRequest, type AppendResult } from '@reelstream/platform-ports';
import { sqlState } from './connection.js';
import { DuplicateEventIdError } from './errors.js';
import { formatPostgresPosition } from './positions.js';
import type { Tables } from './schema.js';

const NO_STREAM = -1;
/** Channel every append notifies at commit, so waiting subscriptions read at once. */
export const APPEND_CHANNEL = 'reelstream_es_appended';
const UNIQUE_VIOLATION = '23505';

interface StoredRef {
  event_id: string;
  stream_id: string;
  revision: string;
  transaction_id: string;
  position: string;
}

/** Numbers as text under their own names: an ORDER BY names `es_events.revision`, not the text (see EVENT_COLUMNS). */
const REF_COLUMNS =
  'event_id::text AS event_id, stream_id, revision::text AS revision, transaction_id::text AS transaction_id, position::text AS position';

/** Inside one append only: turned into the DuplicateEventIdError (or the retry's result) it stands for. */
class EventIdClash extends ReelstreamError {
  override readonly name = 'EventIdClash';
  constructor() {
    super('INTERNAL', 'the event id is already stored', { retriable: false });
  }
}

/**
 * One append, one transaction: appends to the same stream take turns on an advisory lock of its
 * id (held to commit), so the revision check and the insert cannot interleave with another
 * append to it, and every event of the append commits together or not at all.
 */
export class AppendWriter {
  constructor(
    private readonly pool: pg.Pool,
    private readonly tables: Tables,
  ) {}

  async append(request: AppendRequest): Promise<AppendResult> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    let outcome: { ok: true; result: AppendResult } | { ok: false; error: unknown };
    try {
      // One round trip each for BEGIN and the lock, the revision, the insert, and notify with COMMIT.
      await client.query(
        `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended(${client.escapeLiteral(request.streamId)}, 0))`,
      );
      const { result, wrote } = await this.appendIn(client, request);
      await client.query(wrote ? `SELECT pg_notify('${APPEND_CHANNEL}', ''); COMMIT` : 'COMMIT');
      outcome = { ok: true, result };
    } catch (error) {
      outcome = { ok: false, error };
      await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError as Error));
    } finally {
      // A connection whose rollback failed is in an unknown state: the pool closes it instead of reusing it.
      client.release(broken);
    }
    if (outcome.ok) return outcome.result;
    if (outcome.error instanceof EventIdClash) return this.duplicateOutcome(request);
    throw outcome.error;
  }

  /** Under the stream's lock: checks the expected revision and inserts; `wrote` is false for a retry or an empty append. */
  private async appendIn(
    client: pg.PoolClient,
    request: AppendRequest,
  ): Promise<{ result: AppendResult; wrote: boolean }> {
    const { streamId, expected, events } = request;
    const { rows } = await client.query<{ revision: string | null }>(
      `SELECT max(revision)::text AS revision FROM ${this.tables.events} WHERE stream_id = $1`,
      [streamId],
    );
    const current = rows[0]?.revision == null ? NO_STREAM : Number(rows[0].revision);
    const unchanged = (result: AppendResult) => ({ result, wrote: false });

    if (expected === 'no_stream' && current !== NO_STREAM)
      return unchanged(await this.retryOrConflict(client, request, NO_STREAM, current));
    if (typeof expected === 'number' && expected !== current)
      return unchanged(await this.retryOrConflict(client, request, expected, current));
    if (expected === 'stream_exists' && current === NO_STREAM) throw conflict(request, current);
    if (events.length === 0)
      return unchanged({ nextExpectedRevision: current, position: await this.tip(client, streamId, current) });

    let inserted: { transaction_id: string; position: string }[];
    try {
      inserted = (
        await client.query<{ transaction_id: string; position: string }>(
          `INSERT INTO ${this.tables.events} (stream_id, revision, event_id, type, data, metadata, category)
           SELECT $1, $2::bigint + e.n, e.event_id, e.type, e.data, e.metadata, $3
           FROM unnest($4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[]) WITH ORDINALITY
             AS e(event_id, type, data, metadata, n)
           ORDER BY e.n
           RETURNING transaction_id::text AS transaction_id, position::text AS position`,
          [
            streamId,
            current,
            request.category,
            events.map((e) => e.eventId),
            events.map((e) => e.type),
            events.map((e) => e.data),
            events.map((e) => e.metadata),
          ],
        )
      ).rows;
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION && String((error as pg.DatabaseError).constraint).includes('event_id'))
        throw new EventIdClash();
      throw error;
    }
    const last = lastOf(inserted);
    return {
      result: {
        nextExpectedRevision: current + events.length,
        position: formatPostgresPosition(last.transaction_id, last.position),
      },
      wrote: true,
    };
  }

  /**
   * The expected revision does not match. It is still a success when the same event ids already
   * follow the expected revision: the caller is retrying an append that did commit.
   */
  private async retryOrConflict(
    client: pg.PoolClient,
    request: AppendRequest,
    expected: number,
    current: number,
  ): Promise<AppendResult> {
    const { streamId, events } = request;
    if (events.length > 0 && current > expected) {
      const { rows } = await client.query<StoredRef>(
        `SELECT ${REF_COLUMNS} FROM ${this.tables.events} WHERE stream_id = $1 AND revision > $2 ORDER BY es_events.revision LIMIT $3`,
        [streamId, expected, events.length],
      );
      const last = rows[events.length - 1];
      if (last && rows.every((row, i) => row.event_id === events[i]?.eventId))
        return {
          nextExpectedRevision: expected + events.length,
          position: formatPostgresPosition(last.transaction_id, last.position),
        };
    }
    throw conflict(request, current);
  }

  /**
   * An insert hit an event id that is already stored. With 'any' or 'stream_exists' the append may
   * be a retry (best effort, as in EventStoreDB): the stored run of ids, starting with this
   * append's first id in this stream, must match. Anything else is refused.
   */
  private async duplicateOutcome(request: AppendRequest): Promise<AppendResult> {
    const { streamId, expected, events } = request;
    const ids = events.map((e) => e.eventId);
    const { rows: stored } = await this.pool.query<StoredRef>(
      `SELECT ${REF_COLUMNS} FROM ${this.tables.events} WHERE event_id = ANY($1::uuid[])`,
      [ids],
    );
    const original = stored.find((row) => row.event_id === ids[0]);
    if ((expected === 'any' || expected === 'stream_exists') && original?.stream_id === streamId) {
      const { rows } = await this.pool.query<StoredRef>(
        `SELECT ${REF_COLUMNS} FROM ${this.tables.events} WHERE stream_id = $1 AND revision >= $2 ORDER BY es_events.revision LIMIT $3`,
        [streamId, original.revision, events.length],
      );
      const last = rows[events.length - 1];
      if (last && rows.every((row, i) => row.event_id === ids[i]))
        return {
          nextExpectedRevision: Number(last.revision),
          position: formatPostgresPosition(last.transaction_id, last.position),
        };
    }
    const existing = stored[0];
    // Stored once, gone now: only a hand-edited table does that. The retry of the caller decides.
    if (!existing) throw new Error(`an event id of the append to ${streamId} clashed on insert but cannot be found`);
    throw new DuplicateEventIdError(existing.event_id, streamId, existing.stream_id, Number(existing.revision));
  }

  /** Position of the stream's last event; `0:0` (before every event) for a stream with none. */
  private async tip(client: pg.PoolClient, streamId: string, current: number): Promise<string> {
    if (current === NO_STREAM) return formatPostgresPosition(0n, 0n);
    const { rows } = await client.query<StoredRef>(
      `SELECT ${REF_COLUMNS} FROM ${this.tables.events} WHERE stream_id = $1 AND revision = $2`,
      [streamId, current],
    );
    const row = rows[0];
    return row ? formatPostgresPosition(row.transaction_id, row.position) : formatPostgresPosition(0n, 0n);
  }
}

function lastOf<T>(rows: readonly T[]): T {
  const last = rows[rows.length - 1];
  if (last === undefined) throw new Error('the insert returned no rows');
  return last;
}

function conflict(request: AppendRequest, current: number): WrongExpectedRevisionError {
  return new WrongExpectedRevisionError(
    request.streamId,
    request.expected,
    current === NO_STREAM ? 'no_stream' : current,
  );
}
