import Database from 'better-sqlite3';

/**
 * Opens (creating when needed) a read model's own SQLite file and builds the read model on it; the
 * file is closed again when either fails. WAL, and NORMAL sync: its rows and checkpoint can always be
 * rebuilt from the log, so the last commits lost on power loss cost nothing but a re-read.
 */
export function openReadModelFile<ReadModel>(
  path: string,
  busyTimeoutMs: number | undefined,
  build: (db: Database.Database) => ReadModel,
): ReadModel {
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs ?? 5_000)}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return build(db);
  } catch (error) {
    db.close();
    throw error;
  }
}
