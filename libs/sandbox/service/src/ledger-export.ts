/**
 * The sandbox's transaction ledger in the CSV an operator hands to `reelstream reconcile`
 * (docs/analyst-guide.md): one row per transaction the wallet recorded, oldest first, with the
 * columns transactionId, command, amount, currency, status. `amount` is the signed change the
 * row made to the player's balance in currency units (a bet −stake, a win +win, a betwin
 * win − stake, a cancel the money it gave back); a row that moved nothing (a refused bet, a cancel
 * with nothing to refund) says 0, so the file states what the operator's books hold, not what was asked.
 */
import { formatAmountString, isCurrencyCode } from '@reelstream/money';
import type { TransactionView } from '@reelstream/sandbox-adapters';

const LEDGER_CSV_COLUMNS = ['transactionId', 'command', 'amount', 'currency', 'status'] as const;

/** A currency the sandbox could not tell (`XXX`: a cancel of an unknown transaction) moved nothing. */
function amountText(minor: number, currency: string): string {
  return isCurrencyCode(currency) ? formatAmountString(minor, currency) : String(minor);
}

export function ledgerCsv(rows: readonly TransactionView[]): string {
  const lines = rows.map((row) =>
    [
      String(row.transactionId),
      row.command,
      amountText(row.creditMinor - row.debitMinor, row.currency),
      row.currency,
      row.statusCode,
    ].join(','),
  );
  return [LEDGER_CSV_COLUMNS.join(','), ...lines].join('\n') + '\n';
}
