/** `reelstream replay`: folds the log into the reports, filtered, as table/csv/ndjson/json. */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  catalogFacts,
  expandDatePlaceholders,
  OUTPUT_FORMATS,
  render,
  replay,
  type OutputFormat,
} from '@reelstream/analytics-application';
import {
  AnalyticsFold,
  DEFAULT_BONUS_RETURN_WINDOW_DAYS,
  DEFAULT_STORM_ATTEMPTS,
  REPORT_NAMES,
  SLA_PERIODS,
  type ReportName,
  type SlaPeriod,
  type WalletSlaSettings,
} from '@reelstream/analytics-domain';
import { CliError } from './cli-error.js';
import { flagOptions, parseCommandLine, valueOptions } from './command-line.js';
import type { CliCommand, CliIo } from './command-registry.js';
import { ProgressBar } from './progress.js';
import {
  buildFilter,
  checkOperatorKnown,
  checkSomethingMatched,
  FILTER_OPTIONS,
  FILTER_USAGE,
} from './replay-filter.js';
import { loadCatalogSetting, loadOperatorSettings } from './settings.js';
import { openSource, sourceUrlOf } from './source.js';

const USAGE = `usage: reelstream replay [options]

Folds the event log into reports. Read-only: nothing is written to the log.

  --source <file|url>     the data file (path or sqlite:<path>), postgres://… or esdb://host:2113?tls=false
                          (default: EVENT_STORE_URL, else $DATA_DIR/reelstream.db, DATA_DIR ./data)
  --operators <file>      operators JSON (time zones; default OPERATORS_JSON/OPERATORS_FILE, else the demo operator)
  --catalog <file>        game catalogue (target RTPs; default CATALOG_FILE, else config/catalog.json)
  --report <name>         ${REPORT_NAMES.join(' | ')} | all (repeatable; default all)
  --format <format>       ${OUTPUT_FORMATS.join(' | ')} (default table on a terminal, else csv)
  --out-dir <dir>         write each report to <dir>/<report>.<csv|ndjson|json|txt> instead of stdout
                          (created if missing; a file is replaced whole, never left half-written);
                          {today} and {yesterday} in it are those UTC dates (/reports/{yesterday})
${FILTER_USAGE}
  --window <days>         bonus-return: days after each bonus's registration counted, 1–366 (default ${DEFAULT_BONUS_RETURN_WINDOW_DAYS})
  --by <period>           ${SLA_PERIODS.join(' | ')} in the operator's time zone: game-performance and wallet-delivery
                          get a row per period (default: one row for the whole range);
                          wallet-sla is always per period (default day)
  --target-ms <ms>        wallet-sla: one latency target for every command, 1–600000
                          (default the dispatcher's limits: bet, betwin, cancel 3000; win 4000)
  --storm-attempts <n>    wallet-sla: a transaction with this many attempts is a retry storm, 2–100 (default ${DEFAULT_STORM_ATTEMPTS})
  --strict                check every event against its contract (slower; for a hand-edited file)
  --no-progress           no progress line on stderr`;

function reportsOf(values: readonly string[] | undefined): ReportName[] {
  if (!values || values.length === 0 || values.includes('all')) return [...REPORT_NAMES];
  for (const value of values)
    if (!(REPORT_NAMES as readonly string[]).includes(value))
      throw new CliError(`unknown --report ${value}: use ${REPORT_NAMES.join(', ')} or all`);
  return REPORT_NAMES.filter((name) => values.includes(name));
}

function formatOf(value: string | undefined, io: CliIo, toFiles: boolean): OutputFormat {
  if (value === undefined) return io.stdout.isTTY && !toFiles ? 'table' : 'csv';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(value))
    throw new CliError(`unknown --format ${value}: use ${OUTPUT_FORMATS.join(', ')}`);
  return value as OutputFormat;
}

/** A whole number option within bounds, else exit 2 naming the option and its range. */
function boundedInteger(option: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max)
    throw new CliError(`${option} ${JSON.stringify(value)} is not a whole number from ${min} to ${max}`);
  return Number(value);
}

function periodOf(value: string | undefined): SlaPeriod | undefined {
  if (value === undefined) return undefined;
  if (!(SLA_PERIODS as readonly string[]).includes(value))
    throw new CliError(`unknown --by ${value}: use ${SLA_PERIODS.join(' or ')}`);
  return value as SlaPeriod;
}

function walletSlaOf(values: {
  by?: string | undefined;
  'target-ms'?: string | undefined;
  'storm-attempts'?: string | undefined;
}): WalletSlaSettings {
  return {
    by: periodOf(values.by) ?? 'day',
    targetMs: boundedInteger('--target-ms', values['target-ms'], 1, 600_000),
    stormAttempts: boundedInteger('--storm-attempts', values['storm-attempts'], 2, 100) ?? DEFAULT_STORM_ATTEMPTS,
  };
}

function parse(args: readonly string[]) {
  return parseCommandLine(
    {
      args: [...args],
      options: {
        ...valueOptions('source', 'operators', 'catalog'),
        ...valueOptions('format', 'out-dir'),
        // The settings of the bonus-return and wallet-SLA reports.
        ...valueOptions('window', 'by', 'target-ms', 'storm-attempts'),
        report: { type: 'string', multiple: true },
        ...flagOptions('no-progress', 'strict'),
        ...FILTER_OPTIONS,
      },
      allowPositionals: false,
      strict: true,
    },
    USAGE,
  ).values;
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const values = parse(args);
  const reports = reportsOf(values.report);
  const format = formatOf(values.format, io, values['out-dir'] !== undefined);
  const bonusReturnWindowDays = boundedInteger('--window', values.window, 1, 366) ?? DEFAULT_BONUS_RETURN_WINDOW_DAYS;
  const walletSla = walletSlaOf(values);
  const operators = loadOperatorSettings(values.operators, io);
  const catalog = loadCatalogSetting(values.catalog, io);
  const filter = buildFilter(values, operators);
  const fold = new AnalyticsFold({
    filter,
    catalog: catalogFacts(catalog),
    timeZoneOf: operators.timeZoneOf,
    bonusReturnWindowDays,
    walletSla,
    by: periodOf(values.by),
  });
  const { store } = await openSource(sourceUrlOf(values.source, io));
  try {
    const [last] = await store.readAll({ direction: 'backwards', maxCount: 1 });
    const bar = new ProgressBar(io.stderr, values['no-progress'] ? undefined : last?.position);
    const onProgress = values['no-progress']
      ? undefined
      : (progress: Parameters<ProgressBar['update']>[0]) => bar.update(progress);
    const validation = values.strict ? ('strict' as const) : ('trusted' as const);
    const done = await replay({ store, fold, validation, ...(onProgress ? { onProgress } : {}) });
    if (onProgress) bar.update(done, true);
    bar.done();
  } finally {
    await store.close();
  }
  checkOperatorKnown(filter.operatorId, operators, fold.index.operators);
  checkSomethingMatched(values, fold.stats, io.stderr);
  if (values['out-dir'] !== undefined) {
    writeReportFiles(resolve(io.cwd, expandDatePlaceholders(values['out-dir'], Date.now())), reports, fold, format, io);
    return 0;
  }
  io.stdout.write(
    render(
      reports.map((name) => fold.untypedReport(name)),
      format,
    ),
  );
  return 0;
}

const EXTENSIONS: Record<OutputFormat, string> = { csv: 'csv', ndjson: 'ndjson', json: 'json', table: 'txt' };

/** `--out-dir`: one file per report, each written beside itself then renamed over the old one. */
function writeReportFiles(
  dir: string,
  reports: readonly ReportName[],
  fold: AnalyticsFold,
  format: OutputFormat,
  io: CliIo,
): void {
  try {
    mkdirSync(dir, { recursive: true });
    for (const name of reports) {
      const path = join(dir, `${name}.${EXTENSIONS[format]}`);
      const partial = join(dir, `.${name}.${EXTENSIONS[format]}.partial`);
      writeFileSync(partial, render([fold.untypedReport(name)], format));
      renameSync(partial, path);
      io.stderr.write(`wrote ${path}\n`);
    }
  } catch (error) {
    throw new CliError(`cannot write the reports to ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

export const replayCommand: CliCommand = {
  words: ['replay'],
  summary:
    'Fold the event log into reports: bonus outcomes, game performance, agent, wallet delivery, campaigns, bonus return, wallet SLA',
  usage: USAGE,
  run,
};
