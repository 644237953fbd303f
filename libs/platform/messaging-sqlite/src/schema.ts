/**
 * Tables of the durable log. All names start with `bus_`: the SQLite event store keeps its `es_`
 * tables in the same file by default. Every statement is idempotent, so processes that open a
 * fresh file at the same moment all succeed (they run it one after another inside BEGIN IMMEDIATE).
 */
export const BUS_SCHEMA = `
CREATE TABLE IF NOT EXISTS bus_topics (
  topic      TEXT    NOT NULL PRIMARY KEY,
  partitions INTEGER NOT NULL CHECK (partitions > 0),
  created_at INTEGER NOT NULL
) WITHOUT ROWID;

-- AUTOINCREMENT: an offset is never reused, even if the newest rows were ever deleted.
CREATE TABLE IF NOT EXISTS bus_messages (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  topic     TEXT    NOT NULL,
  partition INTEGER NOT NULL,
  key       TEXT    NOT NULL,
  value     TEXT    NOT NULL,
  headers   TEXT    NOT NULL,
  timestamp INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS bus_messages_by_partition ON bus_messages (topic, partition, id);

-- position: id of the last message the group has handled in the partition (0: none).
CREATE TABLE IF NOT EXISTS bus_offsets (
  group_id   TEXT    NOT NULL,
  topic      TEXT    NOT NULL,
  partition  INTEGER NOT NULL,
  position   INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (group_id, topic, partition)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS bus_members (
  group_id   TEXT    NOT NULL,
  topic      TEXT    NOT NULL,
  member_id  TEXT    NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (group_id, topic, member_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS bus_leases (
  group_id   TEXT    NOT NULL,
  topic      TEXT    NOT NULL,
  partition  INTEGER NOT NULL,
  owner      TEXT    NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (group_id, topic, partition)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS bus_leases_by_owner ON bus_leases (group_id, owner);
`;
