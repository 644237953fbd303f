/**
 * What the admin API reads and writes besides callbacks: accounts (open, set, fund), the
 * transaction ledger (to check it against the platform's event log) and the log of every callback
 * received (to check per-player order and count replays).
 */
import { formatAmount } from '@reelstream/money';
import type { CallbackStatusCode } from '@reelstream/contracts';
import type { CancelEffect } from './wallet-ledger.js';
import type { SandboxDatabase } from './wallet-database.js';

export interface AccountView {
  currency: string;
  balance: number;
  balanceMinor: number;
}

export interface TransactionView {
  seq: number;
  operatorId: string;
  transactionId: number;
  command: 'bet' | 'win' | 'betwin' | 'cancel';
  playerId: string;
  roundId: number;
  currency: string;
  debitMinor: number;
  creditMinor: number;
  refTransactionId: number | null;
  statusCode: CallbackStatusCode;
  /** Money moved (for a cancel: it took effect). */
  applied: boolean;
  canceledBy: number | null;
  cancelEffect: CancelEffect | null;
  createdAt: string;
}

/** How the sandbox handled one received callback. */
export type RequestOutcome = 'applied' | 'rejected' | 'replayed' | 'conflict' | 'bad_signature' | 'invalid' | 'fault';

export interface RequestView {
  seq: number;
  operatorId: string;
  playerId: string | null;
  command: string | null;
  transactionId: number | null;
  outcome: RequestOutcome;
  statusCode: string | null;
  faultId: number | null;
  receivedAt: string;
}

export interface LedgerFilter {
  operatorId?: string;
  playerId?: string;
  transactionId?: number;
  /** Only rows after this sequence number. */
  afterSeq?: number;
  limit?: number;
}

interface TransactionRow {
  seq: number;
  operator_id: string;
  transaction_id: number;
  command: TransactionView['command'];
  player_id: string;
  round_id: number;
  currency: string;
  debit_minor: number;
  credit_minor: number;
  ref_transaction_id: number | null;
  status_code: CallbackStatusCode;
  applied: number;
  canceled_by: number | null;
  cancel_effect: CancelEffect | null;
  created_at: string;
}

interface RequestRow {
  seq: number;
  operator_id: string;
  player_id: string | null;
  command: string | null;
  transaction_id: number | null;
  outcome: RequestOutcome;
  status_code: string | null;
  fault_id: number | null;
  received_at: string;
}

/** The rows of one of the sandbox's logs that pass `filter`, oldest first. */
function filteredRows<Row>(
  db: SandboxDatabase,
  table: 'sandbox_transactions' | 'sandbox_requests',
  filter: LedgerFilter,
): Row[] {
  const conditions: string[] = ['seq > ?'];
  const params: (string | number)[] = [filter.afterSeq ?? 0];
  const add = (condition: string, value: string | number | undefined) => {
    if (value === undefined) return;
    conditions.push(condition);
    params.push(value);
  };
  add('operator_id = ?', filter.operatorId);
  add('player_id = ?', filter.playerId);
  add('transaction_id = ?', filter.transactionId);
  return db
    .prepare<(string | number)[], Row>(`SELECT * FROM ${table} WHERE ${conditions.join(' AND ')} ORDER BY seq LIMIT ?`)
    .all(...params, filter.limit ?? 100_000);
}

export class LedgerViews {
  private readonly accountsOf;
  private readonly upsertBalance;
  private readonly addBalance;
  private readonly insertRequest;

  constructor(
    private readonly db: SandboxDatabase,
    private readonly now: () => string,
  ) {
    this.accountsOf = db.prepare<[string, string], { currency: string; balance_minor: number }>(
      'SELECT currency, balance_minor FROM sandbox_accounts WHERE operator_id = ? AND player_id = ? ORDER BY currency',
    );
    this.upsertBalance = db.prepare<[string, string, string, number, string]>(
      `INSERT INTO sandbox_accounts (operator_id, player_id, currency, balance_minor, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (operator_id, player_id, currency) DO UPDATE SET balance_minor = excluded.balance_minor, updated_at = excluded.updated_at`,
    );
    this.addBalance = db.prepare<[string, string, string, number, string]>(
      `INSERT INTO sandbox_accounts (operator_id, player_id, currency, balance_minor, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (operator_id, player_id, currency) DO UPDATE SET balance_minor = balance_minor + excluded.balance_minor, updated_at = excluded.updated_at`,
    );
    this.insertRequest = db.prepare(
      `INSERT INTO sandbox_requests (operator_id, player_id, command, transaction_id, outcome, status_code, fault_id, received_at)
       VALUES (@operatorId, @playerId, @command, @transactionId, @outcome, @statusCode, @faultId, @receivedAt)`,
    );
  }

  accounts(operatorId: string, playerId: string): AccountView[] {
    return this.accountsOf.all(operatorId, playerId).map((row) => ({
      currency: row.currency,
      balanceMinor: row.balance_minor,
      balance: formatAmount(row.balance_minor, row.currency),
    }));
  }

  setBalance(operatorId: string, playerId: string, currency: string, balanceMinor: number): AccountView[] {
    this.upsertBalance.run(operatorId, playerId, currency, balanceMinor, this.now());
    return this.accounts(operatorId, playerId);
  }

  deposit(operatorId: string, playerId: string, currency: string, amountMinor: number): AccountView[] {
    this.addBalance.run(operatorId, playerId, currency, amountMinor, this.now());
    return this.accounts(operatorId, playerId);
  }

  transactions(filter: LedgerFilter = {}): TransactionView[] {
    return filteredRows<TransactionRow>(this.db, 'sandbox_transactions', filter).map((row) => ({
      seq: row.seq,
      operatorId: row.operator_id,
      transactionId: row.transaction_id,
      command: row.command,
      playerId: row.player_id,
      roundId: row.round_id,
      currency: row.currency,
      debitMinor: row.debit_minor,
      creditMinor: row.credit_minor,
      refTransactionId: row.ref_transaction_id,
      statusCode: row.status_code,
      applied: row.applied === 1,
      canceledBy: row.canceled_by,
      cancelEffect: row.cancel_effect,
      createdAt: row.created_at,
    }));
  }

  logRequest(entry: Omit<RequestView, 'seq' | 'receivedAt'>): void {
    this.insertRequest.run({ ...entry, receivedAt: this.now() });
  }

  requests(filter: LedgerFilter = {}): RequestView[] {
    return filteredRows<RequestRow>(this.db, 'sandbox_requests', filter).map((row) => ({
      seq: row.seq,
      operatorId: row.operator_id,
      playerId: row.player_id,
      command: row.command,
      transactionId: row.transaction_id,
      outcome: row.outcome,
      statusCode: row.status_code,
      faultId: row.fault_id,
      receivedAt: row.received_at,
    }));
  }
}
