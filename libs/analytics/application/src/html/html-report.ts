/**
 * `reelstream report --html`: one self-contained page — the reports as tables and three
 * charts drawn by uPlot, whose script and stylesheet are inlined (the caller passes them), so
 * the file opens with no network. Its Content-Security-Policy allows nothing from elsewhere.
 */
import type { AgentRow, LatencySeries, Report, RtpPoint } from '@reelstream/analytics-domain';
import { formatAmount, isCurrencyCode } from '@reelstream/money';
import { CHART_SCRIPT } from './chart-script.js';
import { escapeHtml, reportTable } from './html-tables.js';

export interface HtmlReportInput {
  readonly title: string;
  /** What the page says it was built from, and when (given: the report itself reads no clock). */
  readonly source: string;
  readonly generatedAt: string;
  readonly reports: readonly Report[];
  readonly rtp: readonly RtpPoint[];
  readonly gameNames: ReadonlyMap<number, string>;
  readonly latency: readonly LatencySeries[];
  readonly assets: { readonly uplotJs: string; readonly uplotCss: string };
}

interface GgrSeries {
  operatorId: string;
  currency: string;
  points: { day: string; ggr: number }[];
}

/** Daily GGR per operator and currency, in currency units, from the agent report's rows. */
export function ggrSeries(rows: readonly AgentRow[]): GgrSeries[] {
  const byKey = new Map<string, GgrSeries>();
  for (const row of rows) {
    const key = `${row.operatorId}|${row.currency}`;
    const series = byKey.get(key) ?? { operatorId: row.operatorId, currency: row.currency, points: [] };
    const ggr = isCurrencyCode(row.currency) ? formatAmount(row.ggrMinor, row.currency) : row.ggrMinor;
    const same = series.points.find((point) => point.day === row.day);
    if (same) same.ggr += ggr;
    else series.points.push({ day: row.day, ggr });
    byKey.set(key, series);
  }
  return [...byKey.values()];
}

/** JSON inside a script element: `<` escaped so no text in the data can close the element. */
const island = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:20px;color:#111827;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}.meta{color:#6b7280;margin:0 0 16px}
.chart{margin:8px 0 24px}.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:12px}
th,td{border:1px solid #e5e7eb;padding:3px 6px;white-space:nowrap}th{background:#f3f4f6;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.note{color:#6b7280;font-size:12px;margin:4px 0}`;

export function renderHtmlReport(input: HtmlReportInput): string {
  const agent = input.reports.find((report) => report.name === 'agent');
  const chartData = {
    rtp: input.rtp.map((point) => ({
      ...point,
      label: `${input.gameNames.get(point.gameId) ?? `game ${point.gameId}`} (${point.currency}, ${point.rounds})`,
    })),
    ggr: ggrSeries((agent?.rows ?? []) as readonly AgentRow[]),
    latency: input.latency,
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(input.title)}</title>
<style>${input.assets.uplotCss}</style><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(input.title)}</h1>
<p class="meta">From ${escapeHtml(input.source)}, ${escapeHtml(input.generatedAt)}. Amounts in each row's currency.</p>
<h2>Charts</h2>
<div class="chart" id="chart-rtp"></div>
<div class="chart" id="chart-ggr"></div>
<div class="chart" id="chart-latency"></div>
${input.reports.map(reportTable).join('\n')}
<script type="application/json" id="chart-data">${island(chartData)}</script>
<script>${input.assets.uplotJs}</script>
<script>${CHART_SCRIPT}</script>
</body></html>
`;
}
