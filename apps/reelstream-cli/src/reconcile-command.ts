/** `reelstream reconcile --operator <id> <file.csv>`: exit 0 when the export and the log agree, 1 when anything differs. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadOperatorTransactions, renderReconcile } from '@reelstream/analytics-application';
import {
  AMOUNT_CONVENTIONS,
  OperatorCsvError,
  parseOperatorCsv,
  reconcile,
  type AmountConvention,
} from '@reelstream/analytics-domain';
import { openSource, sourceUrlOf } from './source.js';
import { CliError } from './cli-error.js';
import type { CliCommand } from './command-registry.js';

const usage = `usage: reelstream reconcile --operator <operatorId> <file.csv> [--amounts signed|carried] [--source <file|sqlite:…|esdb://…>] [--json]

Compares the operator's own transaction export (columns transactionId, command, amount, currency,
status; see docs/analyst-guide.md) with the wallet transactions in the log, and lists what differs.
Amounts are signed changes to the balance (a bet -1.00) or as the callbacks carried them (a bet 1.00,
the command giving the direction); without --amounts the bet rows tell which, and the output says so.
Exit code 0: no difference; 1: differences; 2: bad input.`;

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
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        operator: { type: 'string' },
        amounts: { type: 'string' },
        source: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    if (values.operator === undefined) throw new CliError(`--operator is required\n${usage}`);
    const convention = values.amounts as AmountConvention | undefined;
    if (convention !== undefined && !AMOUNT_CONVENTIONS.includes(convention))
      throw new CliError(
        `--amounts must be ${AMOUNT_CONVENTIONS.join(' or ')}, not ${JSON.stringify(values.amounts)}\n${usage}`,
      );
    if (positionals.length !== 1) throw new CliError(`give one CSV file\n${usage}`);
    const rows = readCsv(resolve(io.cwd, positionals[0] ?? ''));
    const { store } = await openSource(sourceUrlOf(values.source, io));
    try {
      const transactions = await loadOperatorTransactions(store, values.operator);
      if (transactions.length === 0)
        throw new CliError(`operator ${values.operator} has no wallet transaction in the log (unknown operator?)`);
      const summary = reconcile(transactions, rows, convention);
      io.stdout.write(
        `${values.json ? JSON.stringify(summary, null, 2) : renderReconcile(values.operator, summary)}\n`,
      );
      return summary.differences.length === 0 ? 0 : 1;
    } finally {
      await store.close();
    }
  },
};
