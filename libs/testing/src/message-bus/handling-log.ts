import Database from 'better-sqlite3';

export interface Handling {
  /** Order in which handlings were recorded, across every process. */
  row: number;
  messageId: number;
  key: string;
  seq: number;
  partition: number;
  offset: string;
  pid: number;
}

/**
 * Where crash-test workers record each handling before returning from the handler: a separate
 * SQLite file, so what was handled survives the SIGKILL that follows.
 */
export class HandlingLog {
  private readonly db: Database.Database;
  private readonly insert;
  private readonly countStatement;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('busy_timeout = 10000');
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS handlings (
      row INTEGER PRIMARY KEY AUTOINCREMENT, message_id INTEGER NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL,
      partition INTEGER NOT NULL, offset TEXT NOT NULL, pid INTEGER NOT NULL)`);
    this.insert = this.db.prepare<[number, string, number, number, string, number]>(
      'INSERT INTO handlings (message_id, key, seq, partition, offset, pid) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.countStatement = this.db
      .prepare<[number], number>('SELECT count(*) FROM handlings WHERE message_id = ?')
      .pluck();
  }

  record(handling: Omit<Handling, 'row'>): void {
    this.insert.run(handling.messageId, handling.key, handling.seq, handling.partition, handling.offset, handling.pid);
  }

  timesHandled(messageId: number): number {
    return this.countStatement.get(messageId) ?? 0;
  }

  all(): Handling[] {
    return this.db
      .prepare<[], Handling>(
        'SELECT row, message_id AS messageId, key, seq, partition, offset, pid FROM handlings ORDER BY row',
      )
      .all();
  }

  close(): void {
    this.db.close();
  }
}
