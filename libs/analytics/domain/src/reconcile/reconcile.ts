/**
 * The operator's books against the log (`reelstream reconcile`): every transaction the log says
 * the operator applied must be in its export with the same command, currency and amount and
 * status OK; every row of the export must be a transaction the log knows; a cancel must give back
 * exactly what its transaction took, and only when the operator has that transaction.
 * Transactions the log cannot vouch for either way (no answer came; a cancel still retried) are
 * accepted present or absent, so long as what the row says is possible.
 */
import { formatAmountString, isCurrencyCode } from '@reelstream/money';
import type { OperatorRow } from './operator-csv.js';
import type { WalletTransaction } from '../audit/wallet-transaction.js';

export type DifferenceKind =
  | 'missing_at_operator'
  | 'missing_in_log'
  | 'duplicate_row'
  | 'command_mismatch'
  | 'currency_mismatch'
  | 'amount_mismatch'
  | 'status_mismatch'
  | 'cancel_without_transaction'
  | 'not_reverted';

export interface Difference {
  readonly kind: DifferenceKind;
  readonly transactionId: number;
  /** The export's line, when the difference is about a row. */
  readonly line: number | null;
  readonly detail: string;
}

export interface ReconcileSummary {
  readonly logTransactions: number;
  readonly operatorRows: number;
  readonly matched: number;
  readonly differences: readonly Difference[];
}

/** What the log expects of one transactionId at the operator. */
interface Expected {
  readonly transactionId: number;
  readonly command: OperatorRow['command'];
  readonly currency: string;
  /** The change it asks for (for a cancel: the reverse of its transaction's). */
  readonly amountMinor: number;
  readonly outcome: 'applied' | 'refused' | 'unknown' | 'absent';
  readonly statusCode: string | undefined;
  /** A cancel's transaction. */
  readonly ref: number | undefined;
}

function expectations(log: readonly WalletTransaction[]): Map<number, Expected> {
  const expected = new Map<number, Expected>();
  for (const tx of log) {
    const outcome = tx.outcome === 'pending' ? 'unknown' : tx.outcome === 'not_sent' ? 'absent' : tx.outcome;
    const { command, currency } = tx.request;
    expected.set(tx.transactionId, {
      transactionId: tx.transactionId,
      command,
      currency,
      amountMinor: tx.amountMinor,
      outcome,
      statusCode: tx.statusCode,
      ref: undefined,
    });
    if (tx.cancel) {
      const id = tx.cancel.cancelTransactionId;
      expected.set(id, {
        transactionId: id,
        command: 'cancel',
        currency,
        amountMinor: -tx.amountMinor,
        outcome: tx.cancel.outcome === 'applied' ? 'applied' : 'unknown',
        statusCode: tx.cancel.outcome === 'applied' ? 'OK' : undefined,
        ref: tx.transactionId,
      });
    }
  }
  return expected;
}

/** An amount in currency units with its code (`-1.00 EUR`); minor units for a currency the table does not know. */
const money = (minor: number, currency: string) =>
  isCurrencyCode(currency) ? `${formatAmountString(minor, currency)} ${currency}` : `${minor} (minor units)`;

function compareRow(want: Expected, row: OperatorRow, rows: ReadonlyMap<number, OperatorRow>, out: Difference[]): void {
  const diff = (kind: DifferenceKind, detail: string) =>
    out.push({ kind, transactionId: want.transactionId, line: row.line, detail });
  if (row.command !== want.command)
    diff('command_mismatch', `the operator has ${row.command}, the log ${want.command}`);
  if (row.currency !== want.currency)
    diff('currency_mismatch', `the operator has ${row.currency}, the log ${want.currency}`);
  if (want.command === 'cancel' && want.ref !== undefined) return compareCancel(want, row, rows.get(want.ref), diff);
  if (want.outcome === 'applied' && row.status !== 'OK')
    diff('status_mismatch', `the operator says ${row.status}, the log OK`);
  if (want.outcome === 'refused' && row.status !== want.statusCode)
    diff('status_mismatch', `the operator says ${row.status}, the log ${want.statusCode ?? 'no answer'}`);
  if (want.outcome === 'absent') diff('status_mismatch', 'the log never sent this transaction');
  // What the row moved: the whole change when OK, nothing otherwise.
  const moved = row.status === 'OK' ? want.amountMinor : 0;
  if (row.amountMinor !== moved)
    diff(
      'amount_mismatch',
      `the operator moved ${money(row.amountMinor, row.currency)}, the log says ${money(moved, want.currency)}`,
    );
}

function compareCancel(
  want: Expected,
  row: OperatorRow,
  refRow: OperatorRow | undefined,
  diff: (kind: DifferenceKind, detail: string) => void,
): void {
  if (row.status !== 'OK' && want.outcome === 'applied')
    diff('status_mismatch', `the operator says ${row.status}, the log OK`);
  const refApplied = refRow?.status === 'OK' && refRow.amountMinor !== 0;
  if (!refApplied && row.amountMinor !== 0)
    diff(
      'cancel_without_transaction',
      `the cancel moved ${money(row.amountMinor, row.currency)} but the operator has no applied transaction ${want.ref}`,
    );
  if (refApplied && row.amountMinor !== -(refRow?.amountMinor ?? 0))
    diff(
      'amount_mismatch',
      `the cancel moved ${money(row.amountMinor, row.currency)}; transaction ${want.ref} moved ${money(refRow?.amountMinor ?? 0, refRow?.currency ?? row.currency)}`,
    );
}

export function reconcile(log: readonly WalletTransaction[], operatorRows: readonly OperatorRow[]): ReconcileSummary {
  const expected = expectations(log);
  const rows = new Map<number, OperatorRow>();
  const differences: Difference[] = [];
  for (const row of operatorRows) {
    if (rows.has(row.transactionId))
      differences.push({
        kind: 'duplicate_row',
        transactionId: row.transactionId,
        line: row.line,
        detail: `also on line ${rows.get(row.transactionId)?.line}`,
      });
    else rows.set(row.transactionId, row);
  }
  let matched = 0;
  for (const row of rows.values()) {
    const want = expected.get(row.transactionId);
    if (!want) {
      differences.push({
        kind: 'missing_in_log',
        transactionId: row.transactionId,
        line: row.line,
        detail: `${row.command} ${money(row.amountMinor, row.currency)} ${row.status} is not a transaction of this operator in the log`,
      });
      continue;
    }
    const before = differences.length;
    compareRow(want, row, rows, differences);
    if (differences.length === before) matched++;
  }
  for (const want of expected.values()) {
    if (rows.has(want.transactionId) || want.outcome !== 'applied') continue;
    const refRow = want.ref === undefined ? undefined : rows.get(want.ref);
    if (want.command === 'cancel' && refRow?.status === 'OK' && refRow.amountMinor !== 0)
      differences.push({
        kind: 'not_reverted',
        transactionId: want.transactionId,
        line: null,
        detail: `the log canceled ${want.ref}, which the operator applied, but the operator has no cancel`,
      });
    else if (want.command !== 'cancel')
      differences.push({
        kind: 'missing_at_operator',
        transactionId: want.transactionId,
        line: null,
        detail: `${want.command} ${money(want.amountMinor, want.currency)} answered OK is not in the export`,
      });
  }
  differences.sort((a, b) => a.transactionId - b.transactionId || a.kind.localeCompare(b.kind));
  return { logTransactions: expected.size, operatorRows: operatorRows.length, matched, differences };
}
