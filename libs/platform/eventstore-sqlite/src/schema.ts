import type { Database } from 'better-sqlite3';

/**
 * Tables are prefixed `es_` because the file is shared with the SQLite message bus by default.
 *
 * - `position` is the rowid: positions are handed out by the single writer in commit order,
 *   so a reader never sees position n+1 before position n.
 * - UNIQUE(stream_id, revision) is the index behind "last revision of a stream" and stream reads.
 * - `category` is the stream id up to and including its first '-' (`playerBonus-`, `walletTx-`);
 *   indexed with the position, it turns a prefix-filtered read of $all into a range scan of one
 *   category instead of a scan of every event.
 */
const ddl = `
CREATE TABLE IF NOT EXISTS es_events (
  position    INTEGER PRIMARY KEY,
  stream_id   TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  event_id    TEXT    NOT NULL UNIQUE,
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL,
  metadata    TEXT    NOT NULL,
  recorded_at TEXT    NOT NULL,
  category    TEXT    NOT NULL,
  UNIQUE (stream_id, revision)
) STRICT;
CREATE INDEX IF NOT EXISTS es_events_by_category ON es_events (category, position);
`;

/**
 * Creates the event tables if they are missing. Several processes may open a new file at the
 * same moment: BEGIN IMMEDIATE makes them take turns, and IF NOT EXISTS makes the later ones no-ops.
 */
export function ensureEventStoreSchema(db: Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(ddl);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
