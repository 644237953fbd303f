/**
 * What the restored log does not account for in the operator's wallet, sorted into what the lost
 * events explain and what nothing explains. reconcile.ts reports a wallet row the log does not know
 * and a balance off from the log's; after a restore both are expected for exactly the transactions
 * the lost events named (a bet, a win, a cancel), and for nothing else.
 */
import type { ReceivedCallback } from './reconcile.js';

const UNACCOUNTED = 'the wallet applied a transaction the event log does not account for: ';
const BALANCE = /^(.+): the wallet's balance is (-?\d+), the log says (-?\d+)$/;

export interface LossExplained {
  /** Wallet transactions the lost events named, which the restored log no longer records. */
  transactions: number;
  /** Their money, in minor units (credits − debits, as the wallet applied them). */
  netMinor: number;
  /** Every disagreement the lost events do not explain. */
  unexplained: string[];
}

/** What one unaccounted wallet row moved: nothing when refused or later canceled (its cancel moved it back). */
const moved = (row: ReceivedCallback) =>
  row.applied && row.canceledBy === null && row.command !== 'cancel' ? row.creditMinor - row.debitMinor : 0;

/** Sorts reconcile.ts's `problems` by the transactionIds the lost events named. */
export function explainLoss(problems: readonly string[], lostTransactionIds: ReadonlySet<number>): LossExplained {
  const unexplained: string[] = [];
  const movedByPlayer = new Map<string, number>();
  const balanceGaps: { line: string; player: string; gap: number }[] = [];
  let transactions = 0;
  for (const line of problems) {
    const balance = BALANCE.exec(line);
    if (line.startsWith(UNACCOUNTED)) {
      const row = JSON.parse(line.slice(UNACCOUNTED.length)) as ReceivedCallback;
      const lost = lostTransactionIds.has(row.transactionId) || lostTransactionIds.has(row.refTransactionId ?? -1);
      if (!lost) unexplained.push(line);
      transactions += 1;
      movedByPlayer.set(row.playerId, (movedByPlayer.get(row.playerId) ?? 0) + moved(row));
    } else if (balance) {
      const [, player = '', wallet = '0', log = '0'] = balance;
      balanceGaps.push({ line, player, gap: Number(wallet) - Number(log) });
    } else unexplained.push(line);
  }
  for (const [player, minor] of movedByPlayer)
    if (minor !== 0 && !balanceGaps.some((gap) => gap.player === player))
      unexplained.push(`${player}: the lost transactions moved ${minor}, yet the balance agrees with the restored log`);
  for (const { line, player, gap } of balanceGaps)
    if (gap !== (movedByPlayer.get(player) ?? 0))
      unexplained.push(`${line}; the lost transactions moved ${movedByPlayer.get(player) ?? 0}`);
  const netMinor = [...movedByPlayer.values()].reduce((sum, minor) => sum + minor, 0);
  return { transactions, netMinor, unexplained };
}
