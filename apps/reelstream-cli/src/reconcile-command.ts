/** `reelstream reconcile --operator <id> <file.csv>`: exit 0 when the export and the log agree, 1 when anything differs. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  loadOperatorTransactions,
  parseTimeArgument,
  rangeResolver,
  renderReconcile,
  TimeArgumentError,
  type ReconcileWindow,
} from '@reelstream/analytics-application';
import {
  AMOUNT_CONVENTIONS,
  OperatorCsvError,
  parseOperatorCsv,
  reconcile,
  type AmountConvention,
} from '@reelstream/analytics-domain';
import { loadOperatorSettings } from './settings.js';
import { openSource, sourceUrlOf } from './source.js';
import { CliError } from './cli-error.js';
import { flagOptions, parseCommandLine, valueOptions } from './command-line.js';
import type { CliCommand } from './command-registry.js';

const usage = `usage: reelstream reconcile --operator <operatorId> <file.csv> [--amounts signed|carried|flipped]
                           [--from <time>] [--to <time>] [--operators <file>]
                           [--source <file|sqlite:…|postgres://…|esdb://…>] [--json]

Compares the operator's own transaction export (columns transactionId, command, amount, currency,
status; see docs/analyst-guide.md) with the wallet transactions in the log, and lists what differs.
Amounts are signed changes to the balance (a bet -1.00), as the callbacks carried them (a bet 1.00,
the command giving the direction), or flipped: the house's side (a bet 1.00, a win -2.50); without
--amounts the rows tell which, and the output says so once.
--from/--to: an export of a period taken at a point in time: only transactions requested from
--from, and the log as it was at --to (an answer after it is one the export could not know).
Times: YYYY-MM-DD, "YYYY-MM-DD HH:mm[:ss]" in the operator's time zone (--operators), or ISO-8601
with Z/±HH:mm; a date alone as --to includes that whole day.
Exit code 0: no difference; 1: differences; 2: bad input.`;

/** The export's period in the operator's zone; `--to` must come after `--from`. */
function windowOf(
  values: { from?: string | undefined; to?: string | undefined },
  operatorId: string,
  timeZoneOf: (operatorId: string) => string,
): ReconcileWindow {
  try {
    const from = values.from === undefined ? undefined : parseTimeArgument('--from', values.from);
    const to = values.to === undefined ? undefined : parseTimeArgument('--to', values.to);
    if (!from && !to) return {};
    const window = rangeResolver(from, to, timeZoneOf)(operatorId);
    if (window.fromMs !== undefined && window.toMs !== undefined && window.fromMs >= window.toMs)
      throw new CliError(`--to ${values.to} is not after --from ${values.from}`);
    return window;
  } catch (error) {
    if (error instanceof TimeArgumentError) throw new CliError(error.message);
    throw error;
  }
}

const describeWindow = (window: ReconcileWindow) =>
  `window: transactions requested from ${window.fromMs === undefined ? 'the start of the log' : new Date(window.fromMs).toISOString()}, the log as of ${window.toMs === undefined ? 'its end' : new Date(window.toMs).toISOString()}`;

function readCsv(path: string) {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return parseOperatorCsv(text);
  } catch (error) {
    if (error instanceof OperatorCsvError) throw new CliError(`${path}: ${error.message}`);
    throw error;
  }
}

export const reconcileCommand: CliCommand = {
  words: ['reconcile'],
  summary: "Compare an operator's transaction export (CSV) with the log; exit 1 when anything differs",
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(
      {
        args: [...args],
        allowPositionals: true,
        options: {
          ...valueOptions('operator', 'amounts', 'source', 'operators', 'from', 'to'),
          ...flagOptions('json'),
        },
      },
      usage,
    );
    if (values.operator === undefined) throw new CliError(`--operator is required\n${usage}`);
    const convention = values.amounts as AmountConvention | undefined;
    if (convention !== undefined && !AMOUNT_CONVENTIONS.includes(convention))
      throw new CliError(
        `--amounts must be ${AMOUNT_CONVENTIONS.join(' or ')}, not ${JSON.stringify(values.amounts)}\n${usage}`,
      );
    if (positionals.length !== 1) throw new CliError(`give one CSV file\n${usage}`);
    const operators = loadOperatorSettings(values.operators, io);
    const window = windowOf(values, values.operator, operators.timeZoneOf);
    const windowed = window.fromMs !== undefined || window.toMs !== undefined;
    const rows = readCsv(resolve(io.cwd, positionals[0] ?? ''));
    const { store } = await openSource(sourceUrlOf(values.source, io));
    try {
      const transactions = await loadOperatorTransactions(store, values.operator, undefined, window);
      if (
        transactions.length === 0 &&
        !(windowed && (await loadOperatorTransactions(store, values.operator)).length > 0)
      )
        throw new CliError(`operator ${values.operator} has no wallet transaction in the log (unknown operator?)`);
      const summary = reconcile(transactions, rows, convention);
      const text = values.json
        ? JSON.stringify(windowed ? { window, ...summary } : summary, null, 2)
        : `${windowed ? `${describeWindow(window)}\n` : ''}${renderReconcile(values.operator, summary)}`;
      io.stdout.write(`${text}\n`);
      return summary.differences.length === 0 ? 0 : 1;
    } finally {
      await store.close();
    }
  },
};
