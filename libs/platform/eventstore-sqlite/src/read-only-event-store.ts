/**
 * The data file opened for reading only, as analysts open it: nothing is created, switched or
 * locked for writing. `SqliteEventStore.open` is the writer's door: it switches the file to WAL
 * and creates the event tables, so it turns a 0-byte file into an event store and fails on a file
 * the reader may not write.
 *
 * It uses node:sqlite, whose file names may be URIs: better-sqlite3 opens `readonly` files but still
 * creates the `-wal` and `-shm` files beside a WAL database, and takes no URI. A file without a
 * `-wal` beside it has no writer (a WAL writer keeps that file while it is open), so it is read as
 * `immutable` (no lock, no `-shm`); a file with one is read in `mode=ro` beside its live writer.
 */
import { existsSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import {
  categoryOf,
  type EventStore,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamRevision,
  type Subscription,
} from '@reelstream/platform-ports';
import { EventStoreClosedError } from './errors.js';
import { compareDecimalPositions, parsePosition } from './positions.js';
import { eventColumns, toRecordedEvent, type EventRow } from './rows.js';
import { ReelstreamError } from '@reelstream/contracts';

const END = Number.MAX_SAFE_INTEGER;

/** The file is not an event store (not SQLite, or SQLite without the `es_events` table this store writes). */
/** Not retriable: the file will not become an event store by being opened again. */
export class NotAnEventStoreFileError extends ReelstreamError {
  override readonly name = 'NotAnEventStoreFileError';
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super('VALIDATION_FAILED', `${path} is not a reelstream data file (${reason})`, { retriable: false });
  }
}

/** The store was opened read-only: it cannot append or subscribe (not retriable). */
class ReadOnlyEventStoreError extends ReelstreamError {
  override readonly name = 'ReadOnlyEventStoreError';
  constructor(message: string) {
    super('INTERNAL', message, { retriable: false });
  }
}

const REQUIRED_COLUMNS = [
  'position',
  'stream_id',
  'revision',
  'event_id',
  'type',
  'data',
  'metadata',
  'recorded_at',
  'category',
];

function openFile(path: string): DatabaseSync {
  const url = pathToFileURL(path);
  url.searchParams.set(existsSync(`${path}-wal`) ? 'mode' : 'immutable', existsSync(`${path}-wal`) ? 'ro' : '1');
  try {
    return new DatabaseSync(url, { readOnly: true });
  } catch (error) {
    throw new NotAnEventStoreFileError(path, (error as Error).message);
  }
}

/** Opens `path` read-only after checking it holds the event table; throws NotAnEventStoreFileError otherwise. */
export function openReadOnlyEventStore(path: string): ReadOnlySqliteEventStore {
  if (!existsSync(path)) throw new NotAnEventStoreFileError(path, 'no such file');
  const db = openFile(path);
  try {
    const columns = db.prepare("SELECT name FROM pragma_table_info('es_events')").all() as { name: string }[];
    const names = new Set(columns.map((column) => column.name));
    const missing = REQUIRED_COLUMNS.filter((name) => !names.has(name));
    if (columns.length === 0) throw new NotAnEventStoreFileError(path, 'no es_events table');
    if (missing.length > 0) throw new NotAnEventStoreFileError(path, `es_events lacks ${missing.join(', ')}`);
    return new ReadOnlySqliteEventStore(db, path);
  } catch (error) {
    db.close();
    if (error instanceof NotAnEventStoreFileError) throw error;
    // SQLITE_NOTADB and friends: a file that is not SQLite at all.
    throw new NotAnEventStoreFileError(path, (error as Error).message);
  }
}

export class ReadOnlySqliteEventStore implements EventStore {
  private closed = false;
  private readonly forwards: StatementSync;
  private readonly backwards: StatementSync;
  private readonly streamForwards: StatementSync;
  private readonly streamBackwards: StatementSync;
  private readonly revision: StatementSync;
  private readonly inCategory: StatementSync;

  constructor(
    private readonly db: DatabaseSync,
    private readonly path: string,
  ) {
    const prepare = (sql: string) => {
      const statement = db.prepare(sql);
      statement.setReturnArrays(true);
      return statement;
    };
    this.forwards = prepare(`SELECT ${eventColumns} FROM es_events WHERE position > ? ORDER BY position LIMIT ?`);
    this.backwards = prepare(`SELECT ${eventColumns} FROM es_events WHERE position < ? ORDER BY position DESC LIMIT ?`);
    this.streamForwards = prepare(
      `SELECT ${eventColumns} FROM es_events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    );
    this.streamBackwards = prepare(
      `SELECT ${eventColumns} FROM es_events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
    );
    this.inCategory = prepare(
      `SELECT ${eventColumns} FROM es_events WHERE category = ? AND position > ? ORDER BY position LIMIT ?`,
    );
    this.revision = prepare('SELECT revision FROM es_events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
  }

  append(): never {
    throw new ReadOnlyEventStoreError(`${this.path} is open read-only: nothing can be appended`);
  }

  subscribeToAll(): Subscription {
    throw new ReadOnlyEventStoreError(`${this.path} is open read-only: no subscription`);
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const direction = options.direction ?? 'forwards';
    const from = options.fromRevision ?? (direction === 'forwards' ? 0 : END);
    const statement = direction === 'forwards' ? this.streamForwards : this.streamBackwards;
    return (statement.all(streamId, from, options.maxCount ?? -1) as unknown as EventRow[]).map(toRecordedEvent);
  }

  async streamRevision(streamId: string): Promise<StreamRevision | undefined> {
    this.assertOpen();
    const row = this.revision.get(streamId) as unknown as [number] | undefined;
    return row?.[0];
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const direction = options.direction ?? 'forwards';
    const from =
      options.fromPosition === undefined ? (direction === 'forwards' ? 0 : END) : parsePosition(options.fromPosition);
    const limit = options.maxCount ?? -1;
    const prefixes = options.filter?.streamPrefixes;
    const statement = direction === 'forwards' ? this.forwards : this.backwards;
    if (prefixes === undefined) return (statement.all(from, limit) as unknown as EventRow[]).map(toRecordedEvent);
    // One prefix with a category (`walletTx-`): a range of the category index; else a walk along positions.
    const [only] = prefixes;
    const category = prefixes.length === 1 && only !== undefined ? categoryOf(only) : '';
    const page = (after: number) =>
      (category !== '' && direction === 'forwards'
        ? this.inCategory.all(category, after, 1000)
        : statement.all(after, 1000)) as unknown as EventRow[];
    const kept: RecordedEvent[] = [];
    let after = from;
    for (;;) {
      const rows = page(after);
      for (const row of rows)
        if (prefixes.some((prefix) => row[1].startsWith(prefix))) {
          kept.push(toRecordedEvent(row));
          if (kept.length === limit) return kept;
        }
      const last = rows[rows.length - 1];
      if (!last) return kept;
      after = last[0];
    }
  }

  comparePositions(a: Position, b: Position): number {
    return compareDecimalPositions(a, b);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreClosedError(this.path);
  }
}
