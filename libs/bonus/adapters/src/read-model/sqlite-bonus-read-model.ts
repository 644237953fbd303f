/**
 * The bonus-ledger's read model on SQLite (better-sqlite3): the query side (`BonusReadModel`) and
 * the projection's writes (`BonusProjectionStore`), each change committed together with the
 * checkpoint (`writeCheckpoint` inside the same transaction), so a crash can never separate them.
 * It can always be dropped and rebuilt from the log (`rebuildBonusReadModel`).
 */
import type Database from 'better-sqlite3';
import { bonusCallRecord, type BonusCallRecord } from '@reelstream/contracts';
import type {
  BonusListFilter,
  BonusProjectionStore,
  BonusReadModel,
  ExpiryTarget,
  ProjectionChange,
} from '@reelstream/bonus-application';
import {
  ensureCheckpointSchema,
  readCheckpoint,
  writeCheckpoint,
  openReadModelFile,
} from '@reelstream/platform-eventstore-sqlite';
import type { Position } from '@reelstream/platform-ports';
import { READ_MODEL_CHECKPOINT, READ_MODEL_DDL } from './schema.js';

interface RecordRow {
  record: string;
}

export interface SqliteBonusReadModelOptions {
  /**
   * How positions order: the event store's own `comparePositions`. Required: the checkpoint holds
   * positions of whichever store runs (EventStoreDB's are `commit-prepare` pairs, not decimals).
   */
  comparePositions: (a: Position, b: Position) => number;
  busyTimeoutMs?: number;
}

export class SqliteBonusReadModel implements BonusReadModel, BonusProjectionStore {
  private readonly statements;
  private readonly applyTransaction;
  private readonly resetTransaction;
  /** One prepared statement per combination of list filters (at most 16). */
  private readonly listStatements = new Map<string, Database.Statement<[Record<string, unknown>], RecordRow>>();

  private constructor(
    readonly db: Database.Database,
    private readonly options: SqliteBonusReadModelOptions,
  ) {
    db.exec(READ_MODEL_DDL);
    ensureCheckpointSchema(db);
    this.statements = prepareStatements(db);
    this.applyTransaction = db.transaction((changes: readonly ProjectionChange[]): BonusCallRecord[] => {
      const written: BonusCallRecord[] = [];
      for (const change of changes) {
        const applied = this.statements.streamRevision.get(change.streamId);
        // Idempotent by stream revision: an event at or before the last one applied is skipped.
        if (applied !== undefined && change.revision <= applied) continue;
        const currentRow = this.statements.anyByIssueId.get(change.issueId);
        // The stored record was validated when it was written; what the change makes of it is validated here.
        const current = currentRow ? (JSON.parse(currentRow.record) as BonusCallRecord) : undefined;
        const record = bonusCallRecord.parse(change.project(current));
        this.statements.upsert.run(
          record.issueId,
          record.operatorId,
          record.platformId,
          record.playerId,
          record.status,
          Date.parse(record.expireAt),
          JSON.stringify(record),
        );
        this.statements.setStreamRevision.run(change.streamId, change.revision);
        written.push(record);
      }
      const last = changes[changes.length - 1];
      if (last) writeCheckpoint(db, READ_MODEL_CHECKPOINT, last.position, options.comparePositions);
      return written;
    });
    this.resetTransaction = db.transaction(() => {
      db.exec('DELETE FROM bonus_calls; DELETE FROM bonus_streams;');
      db.prepare('DELETE FROM es_checkpoints WHERE name = ?').run(READ_MODEL_CHECKPOINT);
    });
  }

  /** Opens (creating when needed) the read model file. Its rows can always be rebuilt, so NORMAL sync is enough. */
  static open(path: string, options: SqliteBonusReadModelOptions): SqliteBonusReadModel {
    return openReadModelFile(path, options.busyTimeoutMs, (db) => new SqliteBonusReadModel(db, options));
  }

  async checkpoint(): Promise<Position | undefined> {
    return readCheckpoint(this.db, READ_MODEL_CHECKPOINT);
  }

  async apply(changes: readonly ProjectionChange[]): Promise<BonusCallRecord[]> {
    return this.applyTransaction.immediate(changes);
  }

  /** Drops every row and the checkpoint: the projection then starts again from the first event. */
  reset(): void {
    this.resetTransaction.immediate();
  }

  async byIssueId(operatorId: string, issueId: number): Promise<BonusCallRecord | undefined> {
    const row = this.statements.byIssueId.get(issueId, operatorId);
    return row && parseRecord(row);
  }

  async byPlatformId(operatorId: string, platformId: string): Promise<BonusCallRecord | undefined> {
    const row = this.statements.byPlatformId.get(operatorId, platformId);
    return row && parseRecord(row);
  }

  async list(filter: BonusListFilter): Promise<BonusCallRecord[]> {
    const where = ['operator_id = @operatorId'];
    if (filter.playerId !== undefined) where.push('player_id = @playerId');
    if (filter.platformId !== undefined) where.push('platform_id = @platformId');
    if (filter.status !== undefined) where.push('status = @status');
    if (filter.beforeIssueId !== undefined) where.push('issue_id < @beforeIssueId');
    const sql = `SELECT record FROM bonus_calls WHERE ${where.join(' AND ')} ORDER BY issue_id DESC LIMIT @limit`;
    let statement = this.listStatements.get(sql);
    // Stryker disable next-line ConditionalExpression: equivalent: a statement prepared again reads the same rows (the cache saves the prepare)
    if (!statement) {
      statement = this.db.prepare<[Record<string, unknown>], RecordRow>(sql);
      this.listStatements.set(sql, statement);
    }
    const rows = statement.all({ ...filter });
    return rows.map(parseRecord);
  }

  async dueForExpiry(instant: string, limit: number): Promise<ExpiryTarget[]> {
    return this.statements.dueForExpiry.all(Date.parse(instant), limit).map((row) => {
      const { operatorId, playerId, issueId, expireAt } = parseRecord(row);
      return { operatorId, playerId, issueId, expireAt };
    });
  }

  async nextExpiry(): Promise<string | undefined> {
    const row = this.statements.nextExpiry.get();
    return row && parseRecord(row).expireAt;
  }

  /** Every record, by issueId: what a rebuild is compared with. */
  allRecords(): BonusCallRecord[] {
    return this.statements.all.all().map(parseRecord);
  }

  close(): void {
    this.db.close();
  }
}

function parseRecord(row: RecordRow): BonusCallRecord {
  return bonusCallRecord.parse(JSON.parse(row.record));
}

/** The read model's fixed statements, prepared once per connection. */
function prepareStatements(db: Database.Database) {
  return {
    byIssueId: db.prepare<[number, string], RecordRow>(
      'SELECT record FROM bonus_calls WHERE issue_id = ? AND operator_id = ?',
    ),
    anyByIssueId: db.prepare<[number], RecordRow>('SELECT record FROM bonus_calls WHERE issue_id = ?'),
    byPlatformId: db.prepare<[string, string], RecordRow>(
      'SELECT record FROM bonus_calls WHERE operator_id = ? AND platform_id = ? ORDER BY issue_id DESC LIMIT 1',
    ),
    dueForExpiry: db.prepare<[number, number], RecordRow>(
      "SELECT record FROM bonus_calls WHERE status = 'active' AND expire_at_ms <= ? ORDER BY expire_at_ms, issue_id LIMIT ?",
    ),
    nextExpiry: db.prepare<[], RecordRow>(
      "SELECT record FROM bonus_calls WHERE status = 'active' ORDER BY expire_at_ms, issue_id LIMIT 1",
    ),
    upsert: db.prepare<[number, string, string, string, string, number, string]>(
      `INSERT INTO bonus_calls (issue_id, operator_id, platform_id, player_id, status, expire_at_ms, record) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (issue_id) DO UPDATE SET status = excluded.status, expire_at_ms = excluded.expire_at_ms, record = excluded.record`,
    ),
    streamRevision: db.prepare<[string], number>('SELECT revision FROM bonus_streams WHERE stream_id = ?').pluck(),
    setStreamRevision: db.prepare<[string, number]>(
      'INSERT INTO bonus_streams (stream_id, revision) VALUES (?, ?) ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision',
    ),
    all: db.prepare<[], RecordRow>('SELECT record FROM bonus_calls ORDER BY issue_id'),
  };
}
