/** `reelstream report --html <file>`: headline figures, charts and the reports in one self-contained HTML page. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { catalogFacts, renderHtmlReport, replay } from '@reelstream/analytics-application';
import {
  AnalyticsFold,
  ChartFold,
  REPORT_NAMES,
  type AgentRow,
  type AnalyticsSettings,
  type LogEvent,
  type ReplayFilter,
} from '@reelstream/analytics-domain';
import { CliError } from './cli-error.js';
import { parseCommandLine, valueOptions } from './command-line.js';
import type { CliCommand, CliIo } from './command-registry.js';
import {
  buildFilter,
  checkOperatorKnown,
  checkSomethingMatched,
  describeFilter,
  FILTER_OPTIONS,
  FILTER_USAGE,
} from './replay-filter.js';
import { loadCatalogSetting, loadOperatorSettings, type Operators } from './settings.js';
import { openSource, sourceUrlOf } from './source.js';

const usage = `usage: reelstream report --html <file> [--source <file|sqlite:…|esdb://…>] [--operators <file>] [--catalog <file>]
                              [--rows <n>] [filters]

Writes one HTML page: what it covers (operators, period, time zone), the headline figures per
currency (GGR, bonus cost, players, RTP against target), GGR per day per currency, RTP per game
against its target, wallet latency per command on a log scale, and the reports of
\`reelstream replay\` as tables. Charts are inline SVG: the page has no script and opens with no network.

  --rows <n>              rows per table (default 50); the rest are counted under it
${FILTER_USAGE}`;

/** The reports' fold, with the charts folded from the same events (those the filter keeps). */
class ReportAndCharts extends AnalyticsFold {
  constructor(
    settings: AnalyticsSettings,
    readonly charts: ChartFold,
  ) {
    super(settings);
  }
  override apply(entry: LogEvent): boolean {
    const counted = super.apply(entry);
    if (counted) this.charts.apply(entry);
    return counted;
  }
}

/** `2026-11-20 00:00` in the zone. */
function inZone(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  return `${parts['year']}-${parts['month']}-${parts['day']} ${parts['hour']}:${parts['minute']}`;
}

/** What the header says the page covers: operators, period and its time zone. */
function scopeOf(
  values: { operator?: string | undefined; from?: string | undefined; to?: string | undefined },
  filter: ReplayFilter,
  operators: Operators,
  agent: readonly AgentRow[],
  described: string,
) {
  const ids = [...new Set(agent.map((row) => row.operatorId))].sort();
  const operatorText = values.operator ?? `all operators (${ids.length > 0 ? ids.join(', ') : 'none moved money'})`;
  const zoneIds = values.operator !== undefined ? [values.operator] : ids;
  const zones = [...new Set(zoneIds.map((id) => operators.timeZoneOf(id)))];
  const timeZone =
    values.operator !== undefined
      ? operators.timeZoneOf(values.operator)
      : zones.length === 1
        ? (zones[0] ?? 'UTC')
        : `each operator's own (${zoneIds.map((id) => `${id} ${operators.timeZoneOf(id)}`).join(', ')})`;
  let period: string;
  if (filter.rangeOf) {
    // Resolved in the zone of the operator asked for (or, for all, the first one's: its days are the header's).
    const zone = values.operator !== undefined ? timeZone : operators.timeZoneOf(ids[0] ?? '');
    const { fromMs, toMs } = filter.rangeOf(values.operator ?? ids[0] ?? '');
    const from = fromMs === undefined ? 'the start of the log' : inZone(fromMs, zone);
    const to = toMs === undefined ? 'the end of the log' : `${inZone(toMs, zone)} (excluded)`;
    const utc = [fromMs, toMs].map((ms) => (ms === undefined ? '…' : new Date(ms).toISOString())).join(' – ');
    period = `${from} to ${to}, UTC ${utc}`;
  } else {
    const days = agent.map((row) => row.day).sort();
    period = days.length > 0 ? `the whole log: ${days[0]} to ${days[days.length - 1]}` : 'the whole log';
  }
  return { operators: operatorText, period, timeZone, filter: described };
}

function optionsOf(args: readonly string[]) {
  return parseCommandLine(
    {
      args: [...args],
      options: { ...valueOptions('html', 'source', 'operators', 'catalog', 'rows'), ...FILTER_OPTIONS },
      strict: true,
    },
    usage,
  ).values;
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const values = optionsOf(args);
  if (values.html === undefined) throw new CliError(`--html <file> is required\n${usage}`);
  const operators = loadOperatorSettings(values.operators, io);
  const catalog = loadCatalogSetting(values.catalog, io);
  const facts = catalogFacts(catalog);
  const maxRows = values.rows === undefined ? 50 : Number(values.rows);
  if (!Number.isInteger(maxRows) || maxRows < 1 || maxRows > 1_000_000)
    throw new CliError(`--rows ${JSON.stringify(values.rows)} is not a whole number of rows (1 or more)`);
  const filter = buildFilter(values, operators);
  const fold = new ReportAndCharts(
    { filter, catalog: facts, timeZoneOf: operators.timeZoneOf },
    new ChartFold((gameId) => facts.get(gameId)?.rtp ?? null),
  );
  const url = sourceUrlOf(values.source, io);
  const { store } = await openSource(url);
  try {
    await replay({ store, fold });
  } finally {
    await store.close();
  }
  checkOperatorKnown(filter.operatorId, operators, fold.index.operators);
  checkSomethingMatched(values, fold.stats, io.stderr);
  const reports = REPORT_NAMES.map((name) => fold.untypedReport(name));
  const agent = (reports.find((report) => report.name === 'agent')?.rows ?? []) as readonly AgentRow[];
  const html = renderHtmlReport({
    title: 'reelstream report',
    source: url,
    generatedAt: new Date().toISOString(),
    scope: scopeOf(values, filter, operators, agent, describeFilter(values)),
    reports,
    playersPerCurrency: fold.agentPlayersPerCurrency(),
    rtp: fold.charts.rtpPoints(),
    gameNames: new Map(catalog.games.map((game) => [game.gameId, game.name])),
    maxRows,
  });
  const path = resolve(io.cwd, values.html);
  try {
    writeFileSync(path, html);
  } catch (error) {
    throw new CliError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  io.stdout.write(`wrote ${path} (${Math.round(html.length / 1024)} kB)\n`);
  return 0;
}

export const reportHtmlCommand: CliCommand = {
  words: ['report'],
  summary: 'Write headline figures, charts and the reports as one self-contained HTML page (--html <file>)',
  usage,
  run,
};
