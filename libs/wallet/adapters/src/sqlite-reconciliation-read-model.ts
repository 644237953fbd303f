/**
 * The reconciliation read model on SQLite (better-sqlite3), the gateway's own file beside the
 * ledger's read model: the rows `GET /v1/transactions`, `GET /v1/wallet/dead-letters` and
 * `GET /v1/webhooks/dead-letters` page through, keyed by operator (and player and status), each
 * list ordered by a per-operator sequence. A page is an index range read: its cost does not grow
 * with the log. Each batch of changes and the checkpoint are committed in one transaction; a change
 * at or before the revision already applied for its stream is skipped (a replay changes nothing).
 * The rows can always be dropped and projected again from the log.
 */
import type Database from 'better-sqlite3';
import { RECONCILIATION_CHECKPOINT } from '@reelstream/wallet-application';
import type {
  DeadLetterRow,
  ReconciliationChange,
  ReconciliationList,
  ReconciliationReadModel,
  StoredWalletTx,
  TransactionRow,
  TransactionRowQuery,
  WalletTxChange,
  WalletTxRow,
  WebhookLetterChange,
  WebhookLetterRow,
} from '@reelstream/wallet-application';
import {
  ensureCheckpointSchema,
  readCheckpoint,
  writeCheckpoint,
  openReadModelFile,
} from '@reelstream/platform-eventstore-sqlite';
import type { Position } from '@reelstream/platform-ports';

const DDL = `
CREATE TABLE IF NOT EXISTS recon_wallet_tx (
  transaction_id  INTEGER PRIMARY KEY,
  revision        INTEGER NOT NULL,
  operator_id     TEXT,
  player_id       TEXT,
  status          TEXT,
  requested_at_ms INTEGER,
  seq             INTEGER,
  stored          TEXT    NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS recon_wallet_tx_by_operator ON recon_wallet_tx (operator_id, seq) WHERE seq IS NOT NULL;
CREATE INDEX IF NOT EXISTS recon_wallet_tx_by_player ON recon_wallet_tx (operator_id, player_id, seq) WHERE seq IS NOT NULL;
CREATE INDEX IF NOT EXISTS recon_wallet_tx_by_status ON recon_wallet_tx (operator_id, status, seq) WHERE seq IS NOT NULL;
CREATE INDEX IF NOT EXISTS recon_wallet_tx_by_player_status ON recon_wallet_tx (operator_id, player_id, status, seq) WHERE seq IS NOT NULL;
CREATE TABLE IF NOT EXISTS recon_dead_letters (
  operator_id    TEXT    NOT NULL,
  transaction_id INTEGER NOT NULL,
  seq            INTEGER NOT NULL,
  PRIMARY KEY (operator_id, transaction_id)
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS recon_dead_letters_by_seq ON recon_dead_letters (operator_id, seq);
CREATE TABLE IF NOT EXISTS recon_webhook_letters (
  operator_id TEXT    NOT NULL,
  event_id    TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  seq         INTEGER,
  letter      TEXT,
  PRIMARY KEY (operator_id, event_id)
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS recon_webhook_letters_by_seq ON recon_webhook_letters (operator_id, seq) WHERE seq IS NOT NULL;
CREATE TABLE IF NOT EXISTS recon_sequences (
  operator_id TEXT    NOT NULL,
  list        TEXT    NOT NULL,
  last        INTEGER NOT NULL,
  PRIMARY KEY (operator_id, list)
) STRICT;
`;

interface SqliteReconciliationReadModelOptions {
  /** How positions order: the event store's own `comparePositions`. */
  comparePositions: (a: Position, b: Position) => number;
  busyTimeoutMs?: number;
}

interface WalletTxRowData {
  revision: number;
  operator_id: string | null;
  seq: number | null;
  stored: string;
}

export class SqliteReconciliationReadModel implements ReconciliationReadModel {
  private readonly statements;
  private readonly applyTransaction;
  private readonly transactionQueries = new Map<string, Database.Statement<[Record<string, unknown>], RawTxRow>>();

  private constructor(
    readonly db: Database.Database,
    options: SqliteReconciliationReadModelOptions,
  ) {
    db.exec(DDL);
    ensureCheckpointSchema(db);
    this.statements = prepareStatements(db);
    this.applyTransaction = db.transaction((changes: readonly ReconciliationChange[]) => {
      // A transaction's row is read once and written once per batch, however many of its events the batch holds.
      const touched = new Map<number, CachedWalletTx>();
      for (const change of changes) {
        if (change.kind === 'walletTx') this.applyWalletTx(change, touched);
        else if (change.kind === 'webhookLetter') this.applyWebhookLetter(change);
      }
      for (const [transactionId, row] of touched) {
        const { listing } = row;
        this.statements.upsertWalletTx.run({
          transactionId,
          revision: row.revision,
          operatorId: listing?.operatorId ?? null,
          playerId: listing?.playerId ?? null,
          status: listing?.status ?? null,
          requestedAtMs: listing?.requestedAtMs ?? null,
          seq: listing ? row.seq : null,
          stored: JSON.stringify(row.stored),
        });
      }
      const last = changes.at(-1);
      if (last) writeCheckpoint(db, RECONCILIATION_CHECKPOINT, last.position, options.comparePositions);
    });
  }

  /**
   * Opens (creating when needed) the file in WAL mode; `:memory:` keeps it in the process (SQLite leaves an
   * in-memory database's journal in memory, so WAL does not apply there). Rebuildable, so NORMAL sync is enough.
   */
  static open(path: string, options: SqliteReconciliationReadModelOptions): SqliteReconciliationReadModel {
    return openReadModelFile(path, options.busyTimeoutMs, (db) => new SqliteReconciliationReadModel(db, options));
  }

  async checkpoint(): Promise<Position | undefined> {
    return readCheckpoint(this.db, RECONCILIATION_CHECKPOINT);
  }

  async apply(changes: readonly ReconciliationChange[]): Promise<void> {
    this.applyTransaction.immediate(changes);
  }

  /**
   * The operator's transactions after `afterSeq` in sequence order, at most `maxRows`, by the filters' index:
   * read as the caller iterates (it may stop early), each state parsed only when asked for.
   */
  *transactionRows(query: TransactionRowQuery): Generator<TransactionRow> {
    const where = ['operator_id = @operatorId', 'seq > @afterSeq'];
    if (query.playerId !== undefined) where.push('player_id = @playerId');
    if (query.status !== undefined) where.push('status = @status');
    const sql = `SELECT seq, transaction_id, requested_at_ms, stored FROM recon_wallet_tx WHERE ${where.join(' AND ')} ORDER BY seq LIMIT @maxRows`;
    let statement = this.transactionQueries.get(sql);
    // Stryker disable next-line ConditionalExpression: equivalent: a statement prepared again reads the same rows (the cache saves the prepare)
    if (!statement) {
      statement = this.db.prepare<[Record<string, unknown>], RawTxRow>(sql);
      this.transactionQueries.set(sql, statement);
    }
    for (const row of statement.iterate({ ...query }))
      yield {
        seq: row.seq,
        transactionId: row.transaction_id,
        requestedAtMs: row.requested_at_ms,
        get stored() {
          return JSON.parse(row.stored) as StoredWalletTx;
        },
      };
  }

  /** The operator's transactions with a standing dead letter after `afterSeq`, in the order of their last letter. */
  deadLetterRows(operatorId: string, afterSeq: number, maxRows: number): DeadLetterRow[] {
    return this.statements.deadLetters.all(operatorId, afterSeq, maxRows).map((row) => ({
      seq: row.seq,
      transactionId: row.transaction_id,
      stored: JSON.parse(row.stored) as StoredWalletTx,
    }));
  }

  /** The operator's standing webhook letters after `afterSeq`, in the order they were (last) dead-lettered. */
  webhookLetterRows(operatorId: string, afterSeq: number, maxRows: number): WebhookLetterRow[] {
    return this.statements.webhookLetters.all(operatorId, afterSeq, maxRows).map((row) => ({
      seq: row.seq,
      letter: JSON.parse(row.letter) as unknown,
    }));
  }

  /** Drops every row and the checkpoint: the projection then starts again from the first event. */
  reset(): void {
    this.db
      .transaction(() => {
        this.db.exec(
          'DELETE FROM recon_wallet_tx; DELETE FROM recon_dead_letters; DELETE FROM recon_webhook_letters; DELETE FROM recon_sequences;',
        );
        this.db.prepare('DELETE FROM es_checkpoints WHERE name = ?').run(RECONCILIATION_CHECKPOINT);
      })
      .immediate();
  }

  close(): void {
    this.db.close();
  }

  private nextSeq(operatorId: string, list: ReconciliationList): number {
    return this.statements.nextSeq.get(operatorId, list) as number;
  }

  /** The row as this batch has it so far: from the file on its first event in the batch. */
  private cachedWalletTx(transactionId: number, touched: Map<number, CachedWalletTx>): CachedWalletTx | undefined {
    const cached = touched.get(transactionId);
    if (cached) return cached;
    const row = this.statements.walletTx.get(transactionId);
    if (!row) return undefined;
    return {
      revision: row.revision,
      seq: row.seq,
      stored: JSON.parse(row.stored) as StoredWalletTx,
      listing: undefined,
      letterOperators: new Set(this.statements.letterOperatorsOf.all(transactionId)),
    };
  }

  private applyWalletTx(change: WalletTxChange, touched: Map<number, CachedWalletTx>): void {
    const current = this.cachedWalletTx(change.transactionId, touched);
    // Idempotent by stream revision: an event at or before the last one applied changes nothing.
    if (current && change.revision <= current.revision) return;
    const row = change.project(current?.stored);
    const { listing } = row;
    let seq = current?.seq ?? null;
    if (listing && seq === null) seq = this.nextSeq(listing.operatorId, 'transactions');
    const letterOperators = current?.letterOperators ?? new Set<string>();
    for (const operatorId of letterOperators)
      if (!row.letterOperators.includes(operatorId)) {
        this.statements.deleteDeadLetter.run(operatorId, change.transactionId);
        letterOperators.delete(operatorId);
      }
    for (const operatorId of row.letterOperators) {
      if (letterOperators.has(operatorId) && operatorId !== row.letteredBy) continue;
      this.statements.upsertDeadLetter.run(operatorId, change.transactionId, this.nextSeq(operatorId, 'deadLetters'));
      letterOperators.add(operatorId);
    }
    touched.set(change.transactionId, { revision: change.revision, seq, stored: row.stored, listing, letterOperators });
  }

  private applyWebhookLetter(change: WebhookLetterChange): void {
    const revision = this.statements.webhookRevision.get(change.operatorId, change.eventId);
    if (revision !== undefined && change.revision <= revision) return;
    const standing = change.letter !== undefined;
    this.statements.upsertWebhookLetter.run({
      operatorId: change.operatorId,
      eventId: change.eventId,
      revision: change.revision,
      seq: standing ? this.nextSeq(change.operatorId, 'webhookLetters') : null,
      letter: standing ? JSON.stringify(change.letter) : null,
    });
  }
}

interface CachedWalletTx {
  revision: number;
  seq: number | null;
  stored: StoredWalletTx;
  /** Undefined until the batch projects an event of it: then what the row's columns become. */
  listing: WalletTxRow['listing'];
  /** The operators whose dead-letter list holds the transaction. */
  letterOperators: Set<string>;
}

interface RawTxRow {
  seq: number;
  transaction_id: number;
  requested_at_ms: number;
  stored: string;
}

function prepareStatements(db: Database.Database) {
  return {
    walletTx: db.prepare<[number], WalletTxRowData>(
      'SELECT revision, operator_id, seq, stored FROM recon_wallet_tx WHERE transaction_id = ?',
    ),
    upsertWalletTx: db.prepare<[Record<string, unknown>]>(
      `INSERT INTO recon_wallet_tx (transaction_id, revision, operator_id, player_id, status, requested_at_ms, seq, stored)
       VALUES (@transactionId, @revision, @operatorId, @playerId, @status, @requestedAtMs, @seq, @stored)
       ON CONFLICT (transaction_id) DO UPDATE SET revision = excluded.revision, operator_id = excluded.operator_id,
         player_id = excluded.player_id, status = excluded.status, requested_at_ms = excluded.requested_at_ms,
         seq = excluded.seq, stored = excluded.stored`,
    ),
    nextSeq: db
      .prepare<[string, string], number>(
        `INSERT INTO recon_sequences (operator_id, list, last) VALUES (?, ?, 1)
         ON CONFLICT (operator_id, list) DO UPDATE SET last = last + 1 RETURNING last`,
      )
      .pluck(),
    letterOperatorsOf: db
      .prepare<[number], string>('SELECT operator_id FROM recon_dead_letters WHERE transaction_id = ?')
      .pluck(),
    deleteDeadLetter: db.prepare<[string, number]>(
      'DELETE FROM recon_dead_letters WHERE operator_id = ? AND transaction_id = ?',
    ),
    upsertDeadLetter: db.prepare<[string, number, number]>(
      `INSERT INTO recon_dead_letters (operator_id, transaction_id, seq) VALUES (?, ?, ?)
       ON CONFLICT (operator_id, transaction_id) DO UPDATE SET seq = excluded.seq`,
    ),
    deadLetters: db.prepare<[string, number, number], { seq: number; transaction_id: number; stored: string }>(
      `SELECT d.seq, d.transaction_id, t.stored FROM recon_dead_letters d
       JOIN recon_wallet_tx t ON t.transaction_id = d.transaction_id
       WHERE d.operator_id = ? AND d.seq > ? ORDER BY d.seq LIMIT ?`,
    ),
    webhookRevision: db
      .prepare<[string, string], number>(
        'SELECT revision FROM recon_webhook_letters WHERE operator_id = ? AND event_id = ?',
      )
      .pluck(),
    upsertWebhookLetter: db.prepare<[Record<string, unknown>]>(
      `INSERT INTO recon_webhook_letters (operator_id, event_id, revision, seq, letter)
       VALUES (@operatorId, @eventId, @revision, @seq, @letter)
       ON CONFLICT (operator_id, event_id) DO UPDATE SET revision = excluded.revision, seq = excluded.seq, letter = excluded.letter`,
    ),
    webhookLetters: db.prepare<[string, number, number], { seq: number; letter: string }>(
      'SELECT seq, letter FROM recon_webhook_letters WHERE operator_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
  };
}
