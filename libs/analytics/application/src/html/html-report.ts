/**
 * `reelstream report --html`: one self-contained page for a manager — what it covers (operators,
 * period, time zone), the headline figures per currency, the charts as inline SVG and the
 * reports as tables (capped). No script and nothing from elsewhere: its Content-Security-Policy
 * allows nothing but its own inline styles.
 */
import type { AgentRow, GamePerformanceRow, Report, RtpPoint, WalletDeliveryRow } from '@reelstream/analytics-domain';
import { escapeHtml, reportTable } from './html-tables.js';
import { ggrCharts, latencyChart, money, rtpChart } from './svg-charts.js';

export interface HtmlReportInput {
  readonly title: string;
  /** What the page says it was built from, and when (given: the report itself reads no clock). */
  readonly source: string;
  readonly generatedAt: string;
  /** What the report covers, as the header states it. */
  readonly scope: {
    /** `casino-eu` or `all operators (casino-eu, casino-kr)`. */
    readonly operators: string;
    /** `2026-11-20 00:00 to 2026-11-21 00:00` or `the whole log`. */
    readonly period: string;
    /** `Europe/Berlin`, or each operator's own zone. */
    readonly timeZone: string;
    /** The filter options as typed. */
    readonly filter: string;
  };
  readonly reports: readonly Report[];
  /** The agent report's distinct players per currency over the period. */
  readonly playersPerCurrency: ReadonlyMap<string, number>;
  readonly rtp: readonly RtpPoint[];
  readonly gameNames: ReadonlyMap<number, string>;
  /** Rows per table (the rest are counted under it). */
  readonly maxRows?: number;
}

/** The headline figures of one currency: never added across currencies. */
export interface Headline {
  readonly currency: string;
  readonly ggrMinor: number;
  readonly bonusPaidMinor: number;
  readonly bonusNotionalMinor: number;
  readonly players: number;
  /** Paid rounds' wins / turnover (standard profile), and the catalogue's RTP weighted by turnover. */
  readonly rtp: number | null;
  readonly targetRtp: number | null;
  /** The paid rounds the RTP is measured on. */
  readonly rounds: number;
}

export function headlines(
  agent: readonly AgentRow[],
  games: readonly GamePerformanceRow[],
  playersPerCurrency: ReadonlyMap<string, number>,
): Headline[] {
  const currencies = [...new Set([...agent.map((row) => row.currency), ...games.map((row) => row.currency)])].sort();
  return currencies.map((currency) => {
    const rows = agent.filter((row) => row.currency === currency);
    const sum = (key: 'ggrMinor' | 'bonusPaidMinor' | 'bonusNotionalMinor') =>
      rows.reduce((total, row) => total + row[key], 0);
    const standard = games.filter((row) => row.currency === currency && row.segment === 'standard');
    const turnover = standard.reduce((total, row) => total + row.turnoverMinor, 0);
    const wins = standard.reduce((total, row) => total + row.winsMinor, 0);
    const targeted = standard.filter((row) => row.theoreticalRtp !== null);
    const targetedTurnover = targeted.reduce((total, row) => total + row.turnoverMinor, 0);
    return {
      currency,
      ggrMinor: sum('ggrMinor'),
      bonusPaidMinor: sum('bonusPaidMinor'),
      bonusNotionalMinor: sum('bonusNotionalMinor'),
      players: playersPerCurrency.get(currency) ?? 0,
      rounds: standard.reduce((total, row) => total + row.rounds, 0),
      rtp: turnover > 0 ? wins / turnover : null,
      targetRtp:
        targetedTurnover > 0
          ? targeted.reduce((total, row) => total + (row.theoreticalRtp ?? 0) * row.turnoverMinor, 0) / targetedTurnover
          : null,
    };
  });
}

const pct = (ratio: number | null) => (ratio === null ? '—' : `${(ratio * 100).toFixed(2)} %`);

function figure(name: string, label: string, value: string, sub: string, data: string): string {
  return `<div class="figure" data-figure="${name}"${data}><div class="label">${escapeHtml(label)}</div><div class="value">${escapeHtml(value)}</div><div class="sub">${escapeHtml(sub)}</div></div>`;
}

function headlineRow(rows: readonly Headline[]): string {
  if (rows.length === 0) return '<section id="headline"><p class="note">No money moved in the period.</p></section>';
  const blocks = rows.map((h) => {
    const off = h.rtp !== null && h.targetRtp !== null ? h.rtp - h.targetRtp : null;
    return `<div class="currency" data-currency="${escapeHtml(h.currency)}"><h3>${escapeHtml(h.currency)}</h3><div class="figures">
${figure('ggr', 'GGR', money(h.ggrMinor, h.currency), 'bets − wins, streamers excluded', ` data-minor="${h.ggrMinor}"`)}
${figure('bonus-cost', 'Bonus cost', money(h.bonusPaidMinor, h.currency), `paid; ${money(h.bonusNotionalMinor, h.currency)} given as free spins`, ` data-minor="${h.bonusPaidMinor}" data-notional-minor="${h.bonusNotionalMinor}"`)}
${figure('players', 'Players', h.players.toLocaleString('en'), 'who moved money', ` data-count="${h.players}"`)}
${figure('rtp', 'RTP vs target', pct(h.rtp), `target ${pct(h.targetRtp)}${off === null ? '' : ` (${off >= 0 ? '+' : '−'}${Math.abs(off * 100).toFixed(2)} pt)`}, ${h.rounds.toLocaleString('en')} paid rounds`, ` data-rtp="${h.rtp ?? ''}" data-target="${h.targetRtp ?? ''}"`)}
</div></div>`;
  });
  return `<section id="headline">${blocks.join('\n')}</section>`;
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:20px;color:#111827;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}h3{font-size:14px;margin:0 0 6px;color:#374151}
.meta{color:#6b7280;margin:0 0 16px}.scope{margin:4px 0 16px;display:grid;grid-template-columns:max-content auto;gap:2px 12px}
.scope dt{color:#6b7280}.scope dd{margin:0;font-weight:600}
#headline{display:flex;flex-wrap:wrap;gap:16px;margin:8px 0 20px}.currency{border:1px solid #e5e7eb;border-radius:8px;padding:10px 14px}
.figures{display:flex;gap:24px}.figure .label{color:#6b7280;font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.figure .value{font-size:28px;font-weight:700;font-variant-numeric:tabular-nums}.figure .sub{color:#6b7280;font-size:12px}
.charts{display:flex;flex-wrap:wrap;gap:12px}.chart{margin:8px 0 16px}
svg text{font:11px system-ui,sans-serif;fill:#374151}svg .chart-title{font-size:13px;font-weight:600;fill:#111827}
svg .grid{stroke:#e5e7eb}svg .zero{stroke:#6b7280}svg .whisker{stroke:#111827;stroke-width:2}svg .target{stroke:#dc2626;stroke-width:3}
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:12px}
th,td{border:1px solid #e5e7eb;padding:3px 6px;white-space:nowrap}th{background:#f3f4f6;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.note,.more{color:#6b7280;font-size:12px;margin:4px 0}.more{color:#92400e}`;

export function renderHtmlReport(input: HtmlReportInput): string {
  const rowsOf = <Row>(name: string) =>
    (input.reports.find((report) => report.name === name)?.rows ?? []) as readonly Row[];
  const agent = rowsOf<AgentRow>('agent');
  const { scope } = input;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(input.title)}</title>
<style>${STYLE}</style></head>
<body>
<header id="scope"><h1>${escapeHtml(input.title)}</h1>
<dl class="scope">
<dt>Operators</dt><dd data-scope="operators">${escapeHtml(scope.operators)}</dd>
<dt>Period</dt><dd data-scope="period">${escapeHtml(scope.period)}</dd>
<dt>Time zone</dt><dd data-scope="time-zone">${escapeHtml(scope.timeZone)}</dd>
${scope.filter ? `<dt>Filter</dt><dd data-scope="filter"><code>${escapeHtml(scope.filter)}</code></dd>` : ''}
</dl>
<p class="meta">From ${escapeHtml(input.source)}, ${escapeHtml(input.generatedAt)}. Money per currency, never added across currencies.</p></header>
<h2>Headline</h2>
${headlineRow(headlines(agent, rowsOf<GamePerformanceRow>('game-performance'), input.playersPerCurrency))}
<h2>GGR per day</h2>
${ggrCharts(agent)}
<h2>RTP per game</h2>
${rtpChart(input.rtp, input.gameNames)}
<h2>Wallet latency</h2>
${latencyChart(rowsOf<WalletDeliveryRow>('wallet-delivery'))}
${input.reports.map((report) => reportTable(report, input.maxRows)).join('\n')}
</body></html>
`;
}
