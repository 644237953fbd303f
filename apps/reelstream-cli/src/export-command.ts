/** `reelstream export <kind>`: row-level CSV or Parquet for BI tools, incremental with a checkpoint. */
import { resolve } from 'node:path';
import {
  EXPORT_FORMATS,
  ExportArgumentError,
  expandDatePlaceholders,
  parseTimeArgument,
  resolveDayWord,
  runExport,
  TimeArgumentError,
  type ExportFormat,
} from '@reelstream/analytics-application';
import { EXPORT_KINDS, type ExportKind } from '@reelstream/analytics-domain';
import { CliError } from './cli-error.js';
import { flagOptions, parseCommandLine, valueOptions } from './command-line.js';
import type { CliCommand, CliIo } from './command-registry.js';
import { ProgressBar } from './progress.js';
import { loadOperatorSettings } from './settings.js';
import { openSource, sourceUrlOf } from './source.js';

const USAGE = `usage: reelstream export ${EXPORT_KINDS.join('|')} --out <file|dir/> [options]

Writes one row per round, wallet transaction, bonus call or session, once the log has closed it
(settled or canceled, answered for good, ended), from the same fold the reports use.
Read-only: nothing is written to the log.

  --out <file|dir/>       the file to write; an existing directory (or a path ending in /) gets
                          <kind>.<ext>, with --checkpoint <kind>-<log position>.<ext> (never overwritten);
                          {today} and {yesterday} in it are those UTC dates (/reports/{yesterday}/)
  --format csv|parquet    default: from the --out extension, else csv
  --from <time>           rows closed at or after (operator time zone unless the time has Z or an offset)
  --to <time>             rows closed before; a date alone includes that whole day
                          times: YYYY-MM-DD, "YYYY-MM-DD HH:mm[:ss]", or ISO-8601 with Z/±HH:mm;
                          today / yesterday: midnight starting that UTC date, in each operator's zone
                          (a daily job: --to today; the checkpoint records the date)
  --checkpoint <file>     export only the rows no earlier run with this checkpoint wrote, then record
                          how far this one got (log position and --to); created when missing
  --source <file|url>     the data file (path or sqlite:<path>), postgres://… or esdb://host:2113?tls=false
  --operators <file>      operators JSON (time zones; default OPERATORS_JSON/OPERATORS_FILE, else the demo operator)
  --no-progress           no progress line on stderr`;

function parse(args: readonly string[]) {
  return parseCommandLine(
    {
      args: [...args],
      options: {
        ...valueOptions('out', 'format', 'from', 'to', 'checkpoint', 'source', 'operators'),
        ...flagOptions('no-progress'),
      },
      allowPositionals: true,
      strict: true,
    },
    USAGE,
  );
}

function kindOf(positionals: readonly string[]): ExportKind {
  const [kind, ...rest] = positionals;
  if (kind === undefined) throw new CliError(`say what to export: ${EXPORT_KINDS.join(', ')}\n${USAGE}`);
  if (!(EXPORT_KINDS as readonly string[]).includes(kind))
    throw new CliError(`unknown export ${JSON.stringify(kind)}: use ${EXPORT_KINDS.join(', ')}`);
  if (rest.length > 0) throw new CliError(`one kind per export, not ${positionals.join(' ')}`);
  return kind as ExportKind;
}

function formatOf(value: string | undefined, out: string): ExportFormat {
  if (value === undefined) return out.endsWith('.parquet') ? 'parquet' : 'csv';
  if (!(EXPORT_FORMATS as readonly string[]).includes(value))
    throw new CliError(`unknown --format ${value}: use ${EXPORT_FORMATS.join(', ')}`);
  return value as ExportFormat;
}

function timeOf(option: '--from' | '--to', given: string | undefined, now: number) {
  if (given === undefined) return undefined;
  // The date a word stands for, not the word, is what a checkpoint must record.
  const text = resolveDayWord(given, now);
  try {
    return { text, time: parseTimeArgument(option, text) };
  } catch (error) {
    if (error instanceof TimeArgumentError) throw new CliError(error.message);
    throw error;
  }
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args);
  const kind = kindOf(positionals);
  if (values.out === undefined) throw new CliError(`--out <file|dir/> is required\n${USAGE}`);
  const now = Date.now();
  const format = formatOf(values.format, values.out);
  const from = timeOf('--from', values.from, now);
  const to = timeOf('--to', values.to, now);
  const operators = loadOperatorSettings(values.operators, io);
  const given = expandDatePlaceholders(values.out, now);
  const out = given.endsWith('/') ? `${resolve(io.cwd, given)}/` : resolve(io.cwd, given);
  const { store } = await openSource(sourceUrlOf(values.source, io));
  try {
    const [last] = await store.readAll({ direction: 'backwards', maxCount: 1 });
    const bar = new ProgressBar(io.stderr, values['no-progress'] ? undefined : last?.position);
    const result = await runExport({
      store,
      kind,
      format,
      out,
      from,
      to,
      checkpointPath: values.checkpoint === undefined ? undefined : resolve(io.cwd, values.checkpoint),
      timeZoneOf: operators.timeZoneOf,
      parseTime: parseTimeArgument,
      ...(values['no-progress'] ? {} : { onProgress: (progress) => bar.update(progress) }),
    });
    bar.done();
    const through = result.checkpoint ? `; checkpoint at log position ${result.checkpoint.position ?? '-'}` : '';
    io.stderr.write(`wrote ${result.path}: ${result.rows} ${kind} row(s) from ${result.events} events${through}\n`);
    return 0;
  } catch (error) {
    if (error instanceof ExportArgumentError || error instanceof TimeArgumentError) throw new CliError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

export const exportCommand: CliCommand = {
  words: ['export'],
  summary: 'Write rounds, transactions, bonus calls or sessions as CSV or Parquet rows, incrementally',
  usage: USAGE,
  run,
};
