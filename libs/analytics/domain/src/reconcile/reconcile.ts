/**
 * The operator's books against the log (`reelstream reconcile`): every transaction the log says
 * the operator applied must be in its export with the same command, currency and amount and
 * status OK; every row of the export must be a transaction the log knows; a cancel must give back
 * exactly what its transaction took, and only when the operator has that transaction.
 * Transactions the log cannot vouch for either way (no answer came; a cancel still retried) are
 * accepted present or absent, so long as what the row says is possible.
 *
 * An export's amounts are read in one of two conventions: `signed`, the change each row made to the
 * balance (a bet `-1.00`, `0` for a refused one), or `carried`, the amount as the callback carried it
 * (a bet `1.00`, refused or not; the command gives the direction). Some operators keep their books
 * from the house's side: every change with the opposite sign of the player's (a bet `1.00`, a win
 * `-2.50`), read as `flipped`: said once, and compared as signed with every sign turned over,
 * rather than every row reported as a mismatch. Unless told, the rows decide: negative bets mean
 * signed; positive bets with negative wins flipped; positive bets otherwise carried.
 */
import { formatAmountString, isCurrencyCode } from '@reelstream/money';
import type { OperatorRow } from './operator-csv.js';
import type { WalletTransaction } from '../audit/wallet-transaction.js';

type DifferenceKind =
  | 'missing_at_operator'
  | 'missing_in_log'
  | 'duplicate_row'
  | 'command_mismatch'
  | 'currency_mismatch'
  | 'amount_mismatch'
  | 'status_mismatch'
  | 'cancel_without_transaction'
  | 'not_reverted';

interface Difference {
  readonly kind: DifferenceKind;
  readonly transactionId: number;
  /** The export's line, when the difference is about a row. */
  readonly line: number | null;
  readonly detail: string;
}

export const AMOUNT_CONVENTIONS = ['signed', 'carried', 'flipped'] as const;
export type AmountConvention = (typeof AMOUNT_CONVENTIONS)[number];

/** Which convention the export's amounts were read in, and why. */
interface AmountReading {
  readonly convention: AmountConvention;
  /** `given` by the caller, `detected` from the bet rows, or the `default` when no bet row tells. */
  readonly how: 'given' | 'detected' | 'default';
  readonly detail: string;
}

export interface ReconcileSummary {
  readonly amounts: AmountReading;
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

/**
 * The convention of an export's amounts, from its bet rows: a bet's signed change is never positive,
 * its carried amount never negative; then, bets positive, from its win rows: a win's carried amount
 * is never negative, its flipped change never positive.
 */
function detectAmountConvention(rows: readonly OperatorRow[]): AmountReading {
  const bets = rows.filter((row) => row.command === 'bet' && row.amountMinor !== 0);
  const negative = bets.filter((row) => row.amountMinor < 0).length;
  const positive = bets.length - negative;
  const wins = rows.filter((row) => row.command === 'win' && row.amountMinor !== 0);
  const negativeWins = wins.filter((row) => row.amountMinor < 0).length;
  if (negative === 0 && positive > 0 && negativeWins > wins.length - negativeWins)
    return {
      convention: 'flipped',
      how: 'detected',
      detail: `every bet in the file has the opposite sign of the platform's (${positive} bet row(s) positive, ${negativeWins} of ${wins.length} win row(s) negative): the house's side of each change; compared with every sign flipped`,
    };
  if (bets.length === 0)
    return {
      convention: 'signed',
      how: 'default',
      detail: 'no bet row with an amount tells the conventions apart; read as signed changes',
    };
  const counts = `${negative} bet row(s) negative, ${positive} positive`;
  return positive > negative
    ? { convention: 'carried', how: 'detected', detail: `amounts as the callbacks carried them (${counts})` }
    : { convention: 'signed', how: 'detected', detail: `signed changes to the balance (${counts})` };
}

const GIVEN_DETAILS: Record<AmountConvention, string> = {
  signed: 'signed changes to the balance',
  carried: 'amounts as the callbacks carried them',
  flipped: "the house's side of each change (a bet positive, a win negative): compared with every sign flipped",
};

const givenReading = (convention: AmountConvention): AmountReading => ({
  convention,
  how: 'given',
  detail: GIVEN_DETAILS[convention],
});

/** A flipped export's rows as signed ones: the same rows, every amount negated. */
const unflipped = (rows: readonly OperatorRow[]): OperatorRow[] =>
  rows.map((row) => ({ ...row, amountMinor: row.amountMinor === 0 ? 0 : -row.amountMinor }));

/**
 * A `carried` export's rows as signed changes, so the rest compares them as it does a signed export.
 * A bet's or win's amount must be what its callback carried (or 0 on a row that is not OK) and
 * moved the balance only when OK; a cancel moved the reverse of what its transaction moved (nothing
 * when the operator has that transaction refused or not at all: the refused bet and its cancel
 * match). A betwin's amount, and its cancel's, is its signed net change in both conventions.
 */
function signedRows(
  rows: ReadonlyMap<number, OperatorRow>,
  expected: ReadonlyMap<number, Expected>,
  out: Difference[],
): Map<number, OperatorRow> {
  const signed = new Map<number, OperatorRow>();
  const read = (row: OperatorRow, movedMinor: (carriedMinor: number) => number) => {
    const want = expected.get(row.transactionId);
    const carried = want === undefined ? Math.abs(row.amountMinor) : Math.abs(want.amountMinor);
    const asCarried = row.amountMinor === carried || (row.status !== 'OK' && row.amountMinor === 0);
    if (want !== undefined && !asCarried)
      out.push({
        kind: 'amount_mismatch',
        transactionId: row.transactionId,
        line: row.line,
        detail: `the operator's ${row.command} carried ${money(row.amountMinor, row.currency)}, the callback ${money(carried, want.currency)}`,
      });
    signed.set(row.transactionId, { ...row, amountMinor: row.status === 'OK' ? movedMinor(carried) : 0 });
  };
  const refOf = (row: OperatorRow) => expected.get(expected.get(row.transactionId)?.ref ?? 0);
  const netted = (row: OperatorRow) =>
    row.command === 'betwin' || (row.command === 'cancel' && refOf(row)?.command === 'betwin');
  for (const row of rows.values()) {
    if (netted(row)) signed.set(row.transactionId, row);
    else if (row.command === 'bet') read(row, (carried) => -carried);
    else if (row.command === 'win') read(row, (carried) => carried);
  }
  for (const row of rows.values()) {
    if (row.command !== 'cancel' || netted(row)) continue;
    const ref = refOf(row);
    const refMoved = ref === undefined ? 0 : (signed.get(ref.transactionId)?.amountMinor ?? 0);
    if (ref === undefined) signed.set(row.transactionId, row);
    else read(row, () => (refMoved === 0 ? 0 : -refMoved));
  }
  return signed;
}

export function reconcile(
  log: readonly WalletTransaction[],
  operatorRows: readonly OperatorRow[],
  convention?: AmountConvention,
): ReconcileSummary {
  const amounts = convention === undefined ? detectAmountConvention(operatorRows) : givenReading(convention);
  const expected = expectations(log);
  const exported = new Map<number, OperatorRow>();
  const differences: Difference[] = [];
  for (const row of amounts.convention === 'flipped' ? unflipped(operatorRows) : operatorRows) {
    if (exported.has(row.transactionId))
      differences.push({
        kind: 'duplicate_row',
        transactionId: row.transactionId,
        line: row.line,
        detail: `also on line ${exported.get(row.transactionId)?.line}`,
      });
    else exported.set(row.transactionId, row);
  }
  const carriedChecked = differences.length;
  const rows = amounts.convention === 'carried' ? signedRows(exported, expected, differences) : exported;
  const misread = new Set(differences.slice(carriedChecked).map((diff) => diff.transactionId));
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
    if (differences.length === before && !misread.has(row.transactionId)) matched++;
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
  return { amounts, logTransactions: expected.size, operatorRows: operatorRows.length, matched, differences };
}
