/**
 * The reports as text: `table` (aligned columns, for a terminal), `csv` (RFC 4180, one header
 * row, one report per file or separated by a blank line and a `# report` line), `ndjson` (one row
 * per line, with a `report` field) and `json` (one document). Money is printed with its
 * currency's exponent (`12.50 EUR` is `12.50`, `1200 KRW` is `1200`), never as a float.
 */
import type { CellKind, Column, Report } from '@reelstream/analytics-domain';
import { formatAmountString } from '@reelstream/money';

export const OUTPUT_FORMATS = ['table', 'csv', 'ndjson', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

type Row = Record<string, unknown>;

/** One cell as text: the same text in every format (JSON keeps numbers and null as JSON). */
function cellText(kind: CellKind, value: unknown, row: Row): string {
  if (value === null || value === undefined) return '';
  switch (kind) {
    case 'money':
      return formatAmountString(value as number, row['currency'] as string);
    case 'ratio':
      return (value as number).toFixed(4);
    default:
      return String(value);
  }
}

function jsonCell(kind: CellKind, value: unknown, row: Row): unknown {
  if (value === null || value === undefined) return null;
  // Money as a decimal string: a JSON number would invite float arithmetic on it.
  if (kind === 'money') return cellText(kind, value, row);
  if (kind === 'ratio') return Number((value as number).toFixed(6));
  return value;
}

function jsonRow(report: Report, row: Row): Row {
  const out: Row = {};
  for (const column of report.columns as readonly Column<Row>[])
    out[column.header] = jsonCell(column.kind, row[column.key], row);
  return out;
}

const rowsOf = (report: Report) => report.rows as readonly Row[];

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function renderCsv(report: Report): string {
  const columns = report.columns as readonly Column<Row>[];
  const lines = [columns.map((column) => csvField(column.header)).join(',')];
  for (const row of rowsOf(report))
    lines.push(columns.map((column) => csvField(cellText(column.kind, row[column.key], row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const RIGHT_ALIGNED: ReadonlySet<CellKind> = new Set(['integer', 'money', 'ratio', 'seconds']);

function renderTable(report: Report): string {
  const columns = report.columns as readonly Column<Row>[];
  const cells = rowsOf(report).map((row) => columns.map((column) => cellText(column.kind, row[column.key], row)));
  const layout = columns.map((column, i) => ({
    right: RIGHT_ALIGNED.has(column.kind),
    width: Math.max(column.header.length, ...cells.map((line) => line[i]?.length ?? 0)),
  }));
  const line = (texts: readonly string[]) =>
    layout
      .map(({ right, width }, i) => (right ? (texts[i] ?? '').padStart(width) : (texts[i] ?? '').padEnd(width)))
      .join('  ')
      .trimEnd();
  const out = [`${report.title} (${report.rows.length} rows)`, line(columns.map((column) => column.header))];
  out.push(line(layout.map(({ width }) => '-'.repeat(width))));
  for (const texts of cells) out.push(line(texts));
  for (const note of report.notes) out.push(`note: ${note}`);
  return `${out.join('\n')}\n`;
}

export function render(reports: readonly Report[], format: OutputFormat): string {
  switch (format) {
    case 'table':
      return reports.map(renderTable).join('\n');
    case 'csv':
      return reports.length === 1 && reports[0]
        ? renderCsv(reports[0])
        : reports.map((report) => `# ${report.name}\r\n${renderCsv(report)}`).join('\r\n');
    case 'ndjson':
      return reports
        .flatMap((report) =>
          rowsOf(report).map((row) => JSON.stringify({ report: report.name, ...jsonRow(report, row) })),
        )
        .map((line) => `${line}\n`)
        .join('');
    case 'json':
      return `${JSON.stringify(
        Object.fromEntries(
          reports.map((report) => [
            report.name,
            { title: report.title, notes: report.notes, rows: rowsOf(report).map((row) => jsonRow(report, row)) },
          ]),
        ),
        null,
        2,
      )}\n`;
  }
}
