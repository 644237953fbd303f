/** `reelstream report --html <file>`: the reports and three charts in one self-contained HTML page. */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { catalogFacts, renderHtmlReport, replay } from '@reelstream/analytics-application';
import {
  AnalyticsFold,
  ChartFold,
  REPORT_NAMES,
  type AnalyticsSettings,
  type LogEvent,
} from '@reelstream/analytics-domain';
import { CliError } from './cli-error.js';
import type { CliCommand, CliIo } from './command-registry.js';
import { loadCatalogSetting, loadOperatorSettings } from './settings.js';
import { openSource, sourceUrlOf } from './source.js';

const usage = `usage: reelstream report --html <file> [--source <file|sqlite:…|esdb://…>] [--operators <file>] [--catalog <file>]

Writes one HTML page with the reports of \`reelstream replay\` as tables and three charts: RTP per
game against its target with 95 % confidence intervals, daily GGR per operator, callback latency.
The chart library (uPlot) is inlined: the page opens with no network.`;

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

function uplotAssets(): { uplotJs: string; uplotCss: string } {
  const require = createRequire(import.meta.url);
  const file = (name: string) => readFileSync(require.resolve(`uplot/dist/${name}`), 'utf8');
  return { uplotJs: file('uPlot.iife.min.js'), uplotCss: file('uPlot.min.css') };
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        html: { type: 'string' },
        source: { type: 'string' },
        operators: { type: 'string' },
        catalog: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${usage}`);
  }
  if (values.html === undefined) throw new CliError(`--html <file> is required\n${usage}`);
  const operators = loadOperatorSettings(values.operators, io);
  const catalog = loadCatalogSetting(values.catalog, io);
  const facts = catalogFacts(catalog);
  const fold = new ReportAndCharts(
    { filter: {}, catalog: facts, timeZoneOf: operators.timeZoneOf },
    new ChartFold((gameId) => facts.get(gameId)?.rtp ?? null),
  );
  const url = sourceUrlOf(values.source, io);
  const { store } = await openSource(url);
  try {
    await replay({ store, fold });
  } finally {
    await store.close();
  }
  const html = renderHtmlReport({
    title: 'reelstream report',
    source: url,
    generatedAt: new Date().toISOString(),
    reports: REPORT_NAMES.map((name) => fold.untypedReport(name)),
    rtp: fold.charts.rtpPoints(),
    gameNames: new Map(catalog.games.map((game) => [game.gameId, game.name])),
    latency: fold.charts.latencySeries(),
    assets: uplotAssets(),
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
  summary: 'Write the reports and charts as one self-contained HTML page (--html <file>)',
  usage,
  run,
};
