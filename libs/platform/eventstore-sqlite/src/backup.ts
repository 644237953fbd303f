import Database from 'better-sqlite3';

/**
 * An online backup of one of the embedded back ends' SQLite files (`reelstream.db`: event store and
 * bus; the `bonus-ledger-read-<instance>.db` read models; `operator-sandbox.db`) while the services keep writing: SQLite's
 * backup API copies a consistent snapshot page by page (better-sqlite3 `db.backup()`), restarting
 * when a writer changes a page already copied. The copy is then opened and checked
 * (`PRAGMA integrity_check`) so a backup that says "ok" can be restored.
 */
export interface SqliteBackupResult {
  pages: number;
  integrity: string;
}

export async function backupSqlite(source: string, destination: string): Promise<SqliteBackupResult> {
  const database = new Database(source, { readonly: true, fileMustExist: true });
  try {
    // A writer holds the file briefly at each commit: wait for it rather than fail.
    database.pragma('busy_timeout = 5000');
    const { totalPages } = await database.backup(destination);
    const copy = new Database(destination, { readonly: true, fileMustExist: true });
    try {
      const integrity = String(copy.pragma('integrity_check', { simple: true }));
      return { pages: totalPages, integrity };
    } finally {
      copy.close();
    }
  } finally {
    database.close();
  }
}
