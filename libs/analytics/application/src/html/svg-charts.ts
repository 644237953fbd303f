/**
 * The HTML report's charts as inline SVG, drawn here (no script in the page): each bar and point
 * carries a `<title>` (the browser's hover text) and `data-*` attributes with its figures.
 * - GGR: one small chart per currency (its own axis; money is never added across currencies),
 *   one group of bars per day, the operators side by side in it;
 * - RTP per game: a bar of measured RTP with its 95 % interval and a tick at the target, named by the catalogue;
 * - wallet latency: p50/p95/p99/max per operator and command (cancels included) on a log axis.
 */
import type { AgentRow, RtpPoint, WalletDeliveryRow } from '@reelstream/analytics-domain';
import { formatAmountString, isCurrencyCode } from '@reelstream/money';
import { escapeHtml } from './html-tables.js';

const PALETTE = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#be185d', '#4b5563'];
/** One colour per wallet command, the same in every report. */
const COMMAND_COLOURS: Record<string, string> = {
  bet: '#2563eb',
  win: '#059669',
  betwin: '#7c3aed',
  cancel: '#dc2626',
};
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

export const money = (minor: number, currency: string): string =>
  isCurrencyCode(currency)
    ? `${formatAmountString(minor, currency)} ${currency}`
    : `${minor} ${currency} (minor units)`;
const pct = (ratio: number): string => `${(ratio * 100).toFixed(1)} %`;
const num = (value: number): string => String(Math.round(value * 10) / 10);

/** 1, 2 or 5 times a power of ten: a step giving about `count` ticks over the span. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

/** Ticks a nice step apart from at or below `min` to at or above `max`: every value is inside the axis. */
function linearTicks(min: number, max: number): number[] {
  const step = niceStep(max - min || 1, 4);
  const ticks: number[] = [];
  const last = Math.ceil(max / step - 1e-9);
  for (let i = Math.floor(min / step + 1e-9); i <= last; i++) ticks.push(i * step);
  return ticks;
}

const W = 520;
const H = 240;
const PAD = { left: 78, right: 12, top: 28, bottom: 40 };

function legend(entries: readonly { label: string; colour: string; dash?: string }[], y: number): string {
  let x = PAD.left;
  return entries
    .map(({ label, colour, dash }) => {
      const item = `<g class="legend-item" data-label="${escapeHtml(label)}"><line x1="${x}" x2="${x + 18}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="6"${dash ? ` stroke-dasharray="${dash}"` : ''}/><text x="${x + 22}" y="${y + 4}">${escapeHtml(label)}</text></g>`;
      x += 30 + label.length * 7;
      return item;
    })
    .join('');
}

interface GgrBar {
  operatorId: string;
  day: string;
  ggrMinor: number;
}

/** Daily GGR of one currency's operators: one group per day, one bar per operator, on the currency's own axis. */
function ggrChart(currency: string, rows: readonly AgentRow[]): string {
  const operators = [...new Set(rows.map((row) => row.operatorId))].sort();
  const days = [...new Set(rows.map((row) => row.day))].sort();
  const bars = new Map<string, GgrBar>();
  for (const row of rows) {
    const key = `${row.operatorId}|${row.day}`;
    const bar = bars.get(key) ?? { operatorId: row.operatorId, day: row.day, ggrMinor: 0 };
    bar.ggrMinor += row.ggrMinor;
    bars.set(key, bar);
  }
  const values = [...bars.values()].map((bar) => bar.ggrMinor);
  const ticks = linearTicks(Math.min(0, ...values), Math.max(0, ...values));
  const low = Math.min(ticks[0] ?? 0, 0);
  const high = Math.max(ticks[ticks.length - 1] ?? 1, 1);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (value: number) => PAD.top + ((high - value) / (high - low)) * plotH;
  const groupW = plotW / days.length;
  const barW = (groupW * 0.8) / operators.length;
  const axis = ticks
    .map(
      (tick) =>
        `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(tick)}" y2="${y(tick)}"/><text class="tick" x="${PAD.left - 4}" y="${y(tick) + 4}" text-anchor="end">${escapeHtml(money(Math.round(tick), currency).replace(` ${currency}`, ''))}</text>`,
    )
    .join('');
  const groups = days
    .map((day, d) => {
      const left = PAD.left + d * groupW + groupW * 0.1;
      const rects = operators
        .map((operatorId, o) => {
          const bar = bars.get(`${operatorId}|${day}`);
          if (!bar) return '';
          const top = y(Math.max(0, bar.ggrMinor));
          const height = Math.max(1, Math.abs(y(bar.ggrMinor) - y(0)));
          return `<rect class="bar" data-operator="${escapeHtml(operatorId)}" data-day="${day}" data-minor="${bar.ggrMinor}" x="${left + o * barW}" y="${top}" width="${barW * 0.95}" height="${height}" fill="${PALETTE[o % PALETTE.length]}"><title>${escapeHtml(`${operatorId}, ${day}: GGR ${money(bar.ggrMinor, currency)}`)}</title></rect>`;
        })
        .join('');
      const label = `<text class="tick" x="${left + groupW * 0.4}" y="${H - PAD.bottom + 14}" text-anchor="middle">${day}</text>`;
      return `<g class="group" data-day="${day}">${rects}${label}</g>`;
    })
    .join('');
  return `<figure class="chart"><svg class="ggr-chart" data-currency="${escapeHtml(currency)}" viewBox="0 0 ${W} ${H + 20}" width="${W}" height="${H + 20}" role="img" aria-label="Daily GGR in ${escapeHtml(currency)}">
<text class="chart-title" x="${PAD.left}" y="16">GGR per day, ${escapeHtml(currency)}</text>
<g class="axis-y" data-currency="${escapeHtml(currency)}">${axis}<text class="axis-label" x="12" y="${PAD.top + plotH / 2}" transform="rotate(-90 12 ${PAD.top + plotH / 2})" text-anchor="middle">GGR (${escapeHtml(currency)})</text></g>
<line class="zero" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(0)}" y2="${y(0)}"/>
${groups}
${legend(
  operators.map((operatorId, o) => ({ label: operatorId, colour: PALETTE[o % PALETTE.length] ?? '#000' })),
  H + 8,
)}
</svg></figure>`;
}

/** One GGR chart per currency, in currency order. */
export function ggrCharts(rows: readonly AgentRow[]): string {
  const currencies = [...new Set(rows.map((row) => row.currency))].sort();
  if (currencies.length === 0) return '<p class="note">No money moved in the period.</p>';
  return `<div class="charts">${currencies
    .map((currency) =>
      ggrChart(
        currency,
        rows.filter((row) => row.currency === currency),
      ),
    )
    .join('')}</div>`;
}

/** RTP per game and currency: measured (bar) with its 95 % interval (whisker) against the target (tick). */
export function rtpChart(points: readonly RtpPoint[], gameNames: ReadonlyMap<number, string>): string {
  if (points.length === 0) return '<p class="note">No paid rounds in the period.</p>';
  const width = Math.max(W, PAD.left + PAD.right + points.length * 70);
  // Up to 200 % (a few rounds of a big win would squash every other game): higher is drawn at the top.
  const ticks = linearTicks(
    0,
    Math.min(2, Math.max(1, ...points.map((p) => Math.max(p.highRtp, p.targetRtp ?? 0)))) * 1.05,
  );
  const top = ticks[ticks.length - 1] ?? 1;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (ratio: number) => PAD.top + ((top - Math.min(top, Math.max(0, ratio))) / top) * plotH;
  const slot = (width - PAD.left - PAD.right) / points.length;
  const axis = ticks
    .map(
      (tick) =>
        `<line class="grid" x1="${PAD.left}" x2="${width - PAD.right}" y1="${y(tick)}" y2="${y(tick)}"/><text class="tick" x="${PAD.left - 4}" y="${y(tick) + 4}" text-anchor="end">${Math.round(tick * 100)} %</text>`,
    )
    .join('');
  const bars = points
    .map((point, i) => {
      const name = gameNames.get(point.gameId) ?? `game ${point.gameId} (not in the catalogue)`;
      const x = PAD.left + i * slot + slot * 0.2;
      const barW = slot * 0.6;
      const mid = x + barW / 2;
      const hover = `${name} (${point.currency}, ${point.rounds} rounds): measured RTP ${pct(point.measuredRtp)}, 95 % interval ${pct(point.lowRtp)}–${pct(point.highRtp)}, target ${point.targetRtp === null ? 'none' : pct(point.targetRtp)}${point.insufficient ? '; too few rounds to compare' : ''}`;
      const target =
        point.targetRtp === null
          ? ''
          : `<line class="target" x1="${x - 4}" x2="${x + barW + 4}" y1="${y(point.targetRtp)}" y2="${y(point.targetRtp)}"/>`;
      return `<g class="game" data-game-id="${point.gameId}" data-currency="${escapeHtml(point.currency)}"><title>${escapeHtml(hover)}</title>
<rect class="bar" x="${x}" y="${y(point.measuredRtp)}" width="${barW}" height="${y(0) - y(point.measuredRtp)}" fill="${point.insufficient ? '#93c5fd' : PALETTE[0]}"/>
<line class="whisker" x1="${mid}" x2="${mid}" y1="${y(point.lowRtp)}" y2="${y(point.highRtp)}"/>${target}
<text class="tick" x="${mid}" y="${H - PAD.bottom + 14}" text-anchor="middle">${escapeHtml(name.length > 12 ? `${name.slice(0, 11)}…` : name)}</text>
<text class="tick" x="${mid}" y="${H - PAD.bottom + 27}" text-anchor="middle">${escapeHtml(point.currency)}</text></g>`;
    })
    .join('\n');
  return `<figure class="chart"><svg class="rtp-chart" viewBox="0 0 ${width} ${H + 20}" width="${width}" height="${H + 20}" role="img" aria-label="RTP per game against its target">
<text class="chart-title" x="${PAD.left}" y="16">RTP per game vs target (95 % interval; pale: too few rounds)</text>
<g class="axis-y">${axis}</g>
${bars}
${legend(
  [
    { label: 'measured RTP', colour: PALETTE[0] ?? '#000' },
    { label: '95 % interval', colour: '#111827' },
    { label: 'target RTP', colour: '#dc2626' },
  ],
  H + 8,
)}
</svg></figure>`;
}

const PERCENTILES = [
  ['p50', 'latencyP50Ms'],
  ['p95', 'latencyP95Ms'],
  ['p99', 'latencyP99Ms'],
  ['max', 'latencyMaxMs'],
] as const;

/** Wallet latency percentiles per operator and command on a log axis: colour per command, dash per operator. */
export function latencyChart(rows: readonly WalletDeliveryRow[]): string {
  const measured = rows.filter((row) => row.latencyP50Ms !== null);
  if (measured.length === 0) return '<p class="note">No wallet call was answered in the period.</p>';
  // A log axis has no zero: an answer within the millisecond is drawn at 1 ms (its title says so).
  const values = measured.flatMap((row) => PERCENTILES.map(([, key]) => Math.max(1, row[key] ?? 1)));
  const lowExp = Math.floor(Math.log10(Math.min(...values)));
  const highExp = Math.max(lowExp + 1, Math.ceil(Math.log10(Math.max(...values))));
  const plotW = W - PAD.left - PAD.right - 60;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (ms: number) => PAD.top + ((highExp - Math.log10(Math.max(1, ms))) / (highExp - lowExp)) * plotH;
  const x = (i: number) => PAD.left + 20 + (i * plotW) / (PERCENTILES.length - 1);
  const ticks: string[] = [];
  for (let exp = lowExp; exp <= highExp; exp++) {
    const ms = 10 ** exp;
    const label = ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
    ticks.push(
      `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(ms)}" y2="${y(ms)}"/><text class="tick" data-ms="${ms}" x="${PAD.left - 4}" y="${y(ms) + 4}" text-anchor="end">${label}</text>`,
    );
  }
  const xLabels = PERCENTILES.map(
    ([label], i) => `<text class="tick" x="${x(i)}" y="${H - PAD.bottom + 14}" text-anchor="middle">${label}</text>`,
  ).join('');
  const operators = [...new Set(measured.map((row) => row.operatorId))].sort();
  const commands = [...new Set(measured.map((row) => row.command))].sort();
  const colourOf = (command: string) =>
    COMMAND_COLOURS[command] ?? PALETTE[(4 + commands.indexOf(command)) % PALETTE.length] ?? '#000';
  const dashOf = (operatorId: string) => DASHES[operators.indexOf(operatorId) % DASHES.length] ?? '';
  const series = measured
    .map((row) => {
      const points = PERCENTILES.map(([label, key], i) => ({ label, ms: row[key] ?? 0, x: x(i) }));
      const dots = points
        .map(
          (point) =>
            `<circle cx="${point.x}" cy="${y(point.ms)}" r="4" fill="${colourOf(row.command)}" data-percentile="${point.label}" data-ms="${point.ms}"><title>${escapeHtml(`${row.operatorId} ${row.command} ${point.label}: ${num(point.ms)} ms${point.ms < 1 ? ' (drawn at 1 ms)' : ''} over ${row.callbacks} calls`)}</title></circle>`,
        )
        .join('');
      const dash = dashOf(row.operatorId);
      return `<g class="series" data-operator="${escapeHtml(row.operatorId)}" data-command="${escapeHtml(row.command)}"><polyline fill="none" stroke="${colourOf(row.command)}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${points.map((point) => `${point.x},${y(point.ms)}`).join(' ')}"/>${dots}</g>`;
    })
    .join('\n');
  const entries = [
    ...commands.map((command) => ({ label: command, colour: colourOf(command) })),
    ...(operators.length > 1
      ? operators.map((operatorId) => ({ label: operatorId, colour: '#6b7280', dash: dashOf(operatorId) }))
      : []),
  ];
  return `<figure class="chart"><svg class="latency-chart" data-scale="log" viewBox="0 0 ${W} ${H + 20}" width="${W}" height="${H + 20}" role="img" aria-label="Wallet latency per command, log scale">
<text class="chart-title" x="${PAD.left}" y="16">Wallet latency per command (log scale)${operators.length > 1 ? ': dash per operator' : ''}</text>
<g class="axis-y" data-scale="log">${ticks.join('')}</g>${xLabels}
${series}
${legend(entries, H + 8)}
</svg></figure>`;
}
