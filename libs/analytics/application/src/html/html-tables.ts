/** The reports as HTML tables: every cell escaped, money printed with its row's currency exponent. */
import type { Column, Report } from '@reelstream/analytics-domain';
import { formatAmountString, isCurrencyCode } from '@reelstream/money';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function cell(column: Column<unknown>, row: Record<string, unknown>): string {
  const value = row[column.key];
  if (value === null || value === undefined) return '';
  const currency = typeof row['currency'] === 'string' ? row['currency'] : '';
  switch (column.kind) {
    case 'money':
      return typeof value === 'number' && isCurrencyCode(currency)
        ? formatAmountString(value, currency)
        : String(value);
    case 'ratio':
      return typeof value === 'number' ? value.toFixed(4) : String(value);
    case 'seconds':
      return typeof value === 'number' ? String(Math.round(value)) : String(value);
    default:
      return String(value);
  }
}

export function reportTable(report: Report): string {
  const columns = report.columns as readonly Column<unknown>[];
  const numeric = (column: Column<unknown>) => column.kind !== 'text' && column.kind !== 'instant';
  const head = columns
    .map((column) => `<th title="${escapeHtml(column.description)}">${escapeHtml(column.header)}</th>`)
    .join('');
  const body = (report.rows as readonly Record<string, unknown>[])
    .map(
      (row) =>
        `<tr>${columns.map((column) => `<td${numeric(column) ? ' class="n"' : ''}>${escapeHtml(cell(column, row))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const notes = report.notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('');
  return `<section id="report-${report.name}"><h2>${escapeHtml(report.title)}</h2>
<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>
${body || `<tr><td colspan="${columns.length}">no rows</td></tr>`}
</tbody></table></div>${notes}</section>`;
}
