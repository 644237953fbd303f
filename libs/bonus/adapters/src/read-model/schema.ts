/**
 * Tables of the ledger's read model (its own SQLite file, `bonus-ledger-read-{INSTANCE_ID}.db`): one row per
 * bonus call with the indexes the queries need — by issueId, by platformId, by player, by status,
 * and the active-by-expiry index of the expiry timer — and the last revision applied per stream.
 * The checkpoint is `es_checkpoints` of the same file, written in the same transaction.
 */
export const READ_MODEL_CHECKPOINT = 'bonus-ledger.read-model';

export const READ_MODEL_DDL = `
CREATE TABLE IF NOT EXISTS bonus_calls (
  issue_id     INTEGER PRIMARY KEY,
  operator_id  TEXT    NOT NULL,
  platform_id  TEXT    NOT NULL,
  player_id    TEXT    NOT NULL,
  status       TEXT    NOT NULL,
  expire_at_ms INTEGER NOT NULL,
  record       TEXT    NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS bonus_calls_by_operator ON bonus_calls (operator_id, issue_id);
CREATE INDEX IF NOT EXISTS bonus_calls_by_platform ON bonus_calls (operator_id, platform_id, issue_id);
CREATE INDEX IF NOT EXISTS bonus_calls_by_player ON bonus_calls (operator_id, player_id, issue_id);
CREATE INDEX IF NOT EXISTS bonus_calls_by_status ON bonus_calls (operator_id, status, issue_id);
CREATE INDEX IF NOT EXISTS bonus_calls_active_by_expiry ON bonus_calls (expire_at_ms, issue_id) WHERE status = 'active';
CREATE TABLE IF NOT EXISTS bonus_streams (
  stream_id TEXT    PRIMARY KEY,
  revision  INTEGER NOT NULL
) STRICT;
`;
