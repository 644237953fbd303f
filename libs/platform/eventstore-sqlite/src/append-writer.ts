import type { Database, Statement } from 'better-sqlite3';
import { WrongExpectedRevisionError, type AppendRequest, type AppendResult } from '@reelstream/platform-ports';
import { DuplicateEventIdError } from './errors.js';

export type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: Error };

const NO_STREAM = -1;

interface StoredEventRef {
  stream_id: string;
  revision: number;
  position: number;
}

/**
 * The body of a group-commit transaction: every append of the batch in one BEGIN IMMEDIATE.
 * An append that conflicts becomes a failed outcome without disturbing the others; any other
 * error rolls the whole batch back. Per event, the happy path costs one INSERT; per append, one
 * indexed lookup of the stream's last revision (skipped when the batch already wrote the stream).
 */
export class AppendWriter {
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  private readonly savepoint: Statement;
  private readonly releaseSavepoint: Statement;
  private readonly rollbackToSavepoint: Statement;
  private readonly lastRevision: Statement<[string], number>;
  private readonly insert: Statement<[string, number, string, string, string, string, string, string]>;
  private readonly positionAt: Statement<[string, number], number>;
  private readonly idsAfter: Statement<[string, number, number], { event_id: string; position: number }>;
  private readonly byEventId: Statement<[string], StoredEventRef>;

  constructor(private readonly db: Database) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT es_append');
    this.releaseSavepoint = db.prepare('RELEASE es_append');
    this.rollbackToSavepoint = db.prepare('ROLLBACK TO es_append');
    this.lastRevision = db
      .prepare<[string], number>('SELECT revision FROM es_events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1')
      .pluck();
    this.insert = db.prepare(
      `INSERT INTO es_events (stream_id, revision, event_id, type, data, metadata, recorded_at, category)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.positionAt = db
      .prepare<[string, number], number>('SELECT position FROM es_events WHERE stream_id = ? AND revision = ?')
      .pluck();
    this.idsAfter = db.prepare(
      'SELECT event_id, position FROM es_events WHERE stream_id = ? AND revision > ? ORDER BY revision LIMIT ?',
    );
    this.byEventId = db.prepare('SELECT stream_id, revision, position FROM es_events WHERE event_id = ?');
  }

  /** Writes the batch in one transaction. Throws, after rolling back, when the transaction fails. */
  writeBatch(batch: readonly AppendRequest[]): AppendOutcome[] {
    const recordedAt = new Date().toISOString();
    // Revisions the batch itself produced, so a second append to a stream skips its lookup.
    const revisions = new Map<string, number>();
    const outcomes: AppendOutcome[] = [];
    this.begin.run();
    try {
      for (const request of batch) outcomes.push(this.appendOne(request, revisions, recordedAt));
      this.commit.run();
    } catch (error) {
      if (this.db.inTransaction) this.rollback.run();
      throw error;
    }
    return outcomes;
  }

  private appendOne(request: AppendRequest, revisions: Map<string, number>, recordedAt: string): AppendOutcome {
    const { streamId, expected, events } = request;
    const current = revisions.get(streamId) ?? this.lastRevision.get(streamId) ?? NO_STREAM;

    if (expected === 'no_stream' && current !== NO_STREAM) return this.retryOrConflict(request, NO_STREAM, current);
    if (typeof expected === 'number' && expected !== current) return this.retryOrConflict(request, expected, current);
    if (expected === 'stream_exists' && current === NO_STREAM) return conflict(request, current);
    if (events.length === 0)
      return { ok: true, result: { nextExpectedRevision: current, position: this.tipPosition(streamId, current) } };

    const inserted =
      events.length === 1
        ? this.insertEvents(request, current, recordedAt)
        : this.insertAtomically(request, current, recordedAt);
    if (typeof inserted === 'number') {
      const nextExpectedRevision = current + events.length;
      revisions.set(streamId, nextExpectedRevision);
      return { ok: true, result: { nextExpectedRevision, position: String(inserted) } };
    }
    return this.duplicateOutcome(request, inserted);
  }

  /** Inserts the events; returns the last position, or the event id that is already stored. */
  private insertEvents(request: AppendRequest, current: number, recordedAt: string): number | { duplicate: string } {
    const { streamId, category, events } = request;
    let position = 0;
    let revision = current;
    for (const event of events) {
      revision += 1;
      try {
        position = Number(
          this.insert.run(
            streamId,
            revision,
            event.eventId,
            event.type,
            event.data,
            event.metadata,
            recordedAt,
            category,
          ).lastInsertRowid,
        );
      } catch (error) {
        if (isEventIdClash(error)) return { duplicate: event.eventId };
        throw error;
      }
    }
    return position;
  }

  /** Several events: a savepoint undoes the first ones when a later one clashes. */
  private insertAtomically(
    request: AppendRequest,
    current: number,
    recordedAt: string,
  ): number | { duplicate: string } {
    this.savepoint.run();
    let inserted: number | { duplicate: string };
    try {
      inserted = this.insertEvents(request, current, recordedAt);
    } catch (error) {
      this.rollbackToSavepoint.run();
      this.releaseSavepoint.run();
      throw error;
    }
    if (typeof inserted !== 'number') this.rollbackToSavepoint.run();
    this.releaseSavepoint.run();
    return inserted;
  }

  /**
   * The expected revision does not match. It is still a success when the same event ids already
   * follow the expected revision: the caller is retrying an append that did commit.
   */
  private retryOrConflict(request: AppendRequest, expected: number, current: number): AppendOutcome {
    const { streamId, events } = request;
    if (events.length > 0 && current > expected) {
      const following = this.idsAfter.all(streamId, expected, events.length);
      const last = following[events.length - 1];
      if (last && following.every((row, i) => row.event_id === events[i]?.eventId)) {
        return {
          ok: true,
          result: { nextExpectedRevision: expected + events.length, position: String(last.position) },
        };
      }
    }
    return conflict(request, current);
  }

  /**
   * An INSERT hit an event id that is already stored. With 'any' or 'stream_exists' the append may
   * be a retry (best effort, as in EventStoreDB): the stored run of ids, starting with this append's
   * first id in this stream, must match. Anything else is refused.
   */
  private duplicateOutcome(request: AppendRequest, duplicateId: { duplicate: string }): AppendOutcome {
    const { streamId, expected, events } = request;
    const first = events[0];
    if ((expected === 'any' || expected === 'stream_exists') && first) {
      const original = this.byEventId.get(first.eventId);
      if (original && original.stream_id === streamId) {
        const run = this.idsAfter.all(streamId, original.revision - 1, events.length);
        const last = run[events.length - 1];
        if (last && run.every((row, i) => row.event_id === events[i]?.eventId)) {
          return {
            ok: true,
            result: { nextExpectedRevision: original.revision + events.length - 1, position: String(last.position) },
          };
        }
      }
    }
    const existing = this.byEventId.get(duplicateId.duplicate);
    if (!existing) throw new Error(`event id ${duplicateId.duplicate} clashed on insert but cannot be found`);
    return {
      ok: false,
      error: new DuplicateEventIdError(duplicateId.duplicate, streamId, existing.stream_id, existing.revision),
    };
  }

  /** Position of the stream's last event; '0' (before every event) for a stream with none. */
  private tipPosition(streamId: string, current: number): string {
    return current === NO_STREAM ? '0' : String(this.positionAt.get(streamId, current) ?? 0);
  }
}

function conflict(request: AppendRequest, current: number): AppendOutcome {
  return {
    ok: false,
    error: new WrongExpectedRevisionError(
      request.streamId,
      request.expected,
      current === NO_STREAM ? 'no_stream' : current,
    ),
  };
}

/** Duck-typed: SqliteError comes from the native binding, whose realm's Error may not be ours. */
function isEventIdClash(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string' && message.includes('es_events.event_id');
}
