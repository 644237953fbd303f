/** The text `audit round` and `reconcile` print: what was checked, what differs, in the currency's units. */
import type { ReconcileSummary, RoundAudit } from '@reelstream/analytics-domain';
import { formatAmountString, isCurrencyCode } from '@reelstream/money';

const money = (minor: number | null, currency: string) =>
  minor === null
    ? '-'
    : isCurrencyCode(currency)
      ? `${formatAmountString(minor, currency)} ${currency}`
      : String(minor);

export function renderRoundAudit(audit: RoundAudit): string {
  const { currency } = audit;
  const lines = [
    `round ${audit.roundId}  ${audit.play}${audit.bonusId === 0 ? '' : ` (bonus ${audit.bonusId})`}  ${audit.status}  operator ${audit.operatorId}  player ${audit.playerId}  game ${audit.gameId}`,
    `model ${audit.modelId ?? '-'}  profile ${audit.profile ?? '-'}  bet ${money(audit.betMinor, currency)}  draws [${audit.draws.join(', ')}]`,
    `recomputed win ${money(audit.recomputedWinMinor, currency)}${audit.topUpMinor > 0 ? `  top-up ${money(audit.topUpMinor, currency)}` : ''}  recorded win ${money(audit.recordedWinMinor, currency)}  paid net ${money(audit.paidNetMinor, currency)}`,
    '',
    'checks:',
    ...audit.checks.map(
      (check) => `  ${check.result.toUpperCase().padEnd(8)} ${check.name.padEnd(16)} ${check.detail}`,
    ),
    '',
    'wallet transactions:',
    ...(audit.transactions.length === 0 ? ['  (none)'] : []),
    ...audit.transactions.map(
      (tx) =>
        `  ${String(tx.transactionId).padEnd(16)} ${tx.command.padEnd(6)} ${money(tx.amountMinor, currency).padStart(14)}  ${tx.outcome}${tx.refTransactionId === null ? '' : `  cancels ${tx.refTransactionId}`}`,
    ),
    '',
    !audit.matches
      ? `MISMATCH: round ${audit.roundId} does not match its record`
      : audit.status === 'canceled'
        ? `MATCH: round ${audit.roundId} was canceled and the money it took was given back`
        : `MATCH: the recorded draws produce what round ${audit.roundId} paid`,
  ];
  return lines.join('\n');
}

export function renderReconcile(operatorId: string, summary: ReconcileSummary): string {
  const how = { given: 'as told', detected: 'detected', default: 'by default' }[summary.amounts.how];
  const head = [
    `operator ${operatorId}: ${summary.operatorRows} rows in the export, ${summary.logTransactions} transactions in the log, ${summary.matched} rows match`,
    `amounts read as ${summary.amounts.convention} (${how}): ${summary.amounts.detail}`,
  ].join('\n');
  if (summary.differences.length === 0) return `${head}\nno difference`;
  return [
    head,
    `${summary.differences.length} difference(s):`,
    ...summary.differences.map(
      (diff) =>
        `  ${diff.kind.padEnd(26)} ${String(diff.transactionId).padEnd(16)} ${diff.line === null ? '' : `line ${diff.line}: `}${diff.detail}`,
    ),
  ].join('\n');
}
