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

/** Rows a table shows before it says how many more there are (`reelstream export` writes them all). */
const DEFAULT_TABLE_ROWS = 50;

export function reportTable(report: Report, maxRows = DEFAULT_TABLE_ROWS): string {
  const columns = report.columns as readonly Column<unknown>[];
  const numeric = (column: Column<unknown>) => column.kind !== 'text' && column.kind !== 'instant';
  const head = columns
    .map((column) => `<th title="${escapeHtml(column.description)}">${escapeHtml(column.header)}</th>`)
    .join('');
  const all = report.rows as readonly Record<string, unknown>[];
  const left = all.length - maxRows;
  const body = all
    .slice(0, maxRows)
    .map(
      (row) =>
        `<tr>${columns.map((column) => `<td${numeric(column) ? ' class="n"' : ''}>${escapeHtml(cell(column, row))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const more =
    left > 0
      ? `<p class="more" data-left-out="${left}">First ${maxRows} of ${all.length} rows: ${left} more not shown. <code>reelstream replay --report ${report.name} --format csv</code> (same filters) or <code>reelstream export</code> writes the full data.</p>`
      : '';
  const notes = report.notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('');
  return `<section id="report-${report.name}"><h2>${escapeHtml(report.title)}</h2>
<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>
${body || `<tr><td colspan="${columns.length}">no rows</td></tr>`}
</tbody></table></div>${more}${notes}</section>`;
}
