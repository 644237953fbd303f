/**
 * The operator's transaction export that `reelstream reconcile` reads (docs/analyst-guide.md): a
 * header row naming the columns transactionId, command, amount, currency, status (in any order,
 * other columns ignored), then one row per transaction. `amount` is in currency units, read here as
 * written: the signed change the transaction made (`-1.00` a bet) or the amount its callback
 * carried (`1.00`); `reconcile` tells the two conventions apart. `status` is `OK` or the error code
 * the operator answered with.
 */
import { tryParseAmount } from '@reelstream/money';
import { ReelstreamError } from '@reelstream/contracts';

const OPERATOR_CSV_COLUMNS = ['transactionId', 'command', 'amount', 'currency', 'status'] as const;
const COMMANDS = ['bet', 'win', 'betwin', 'cancel'] as const;

export interface OperatorRow {
  /** 1-based line in the file, for messages. */
  readonly line: number;
  readonly transactionId: number;
  readonly command: (typeof COMMANDS)[number];
  readonly amountMinor: number;
  readonly currency: string;
  readonly status: string;
}

/** An operator's CSV this code cannot read: not retriable. */
export class OperatorCsvError extends ReelstreamError {
  override readonly name = 'OperatorCsvError';
  constructor(message: string) {
    super('VALIDATION_FAILED', message, { retriable: false });
  }
}

/** Splits one CSV line; quoted fields may hold commas and doubled quotes. */
function fields(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted && char === '"' && line[i + 1] === '"') [current, i] = [current + '"', i + 1];
    else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) [out[out.length], current] = [current.trim(), ''];
    else current += char;
  }
  out.push(current.trim());
  return out;
}

function row(cells: string[], index: Record<string, number>, line: number): OperatorRow {
  const cell = (name: string) => cells[index[name] ?? -1] ?? '';
  const where = `line ${line}`;
  const id = cell('transactionId');
  if (!/^[1-9][0-9]{0,15}$/.test(id) || !Number.isSafeInteger(Number(id)))
    throw new OperatorCsvError(`${where}: transactionId ${JSON.stringify(id)} is not a positive integer`);
  const command = cell('command') as OperatorRow['command'];
  if (!COMMANDS.includes(command))
    throw new OperatorCsvError(`${where}: command ${JSON.stringify(command)} is not one of ${COMMANDS.join(', ')}`);
  const currency = cell('currency').toUpperCase();
  const amount = tryParseAmount(cell('amount'), currency);
  if (!amount.ok)
    throw new OperatorCsvError(`${where}: amount ${JSON.stringify(cell('amount'))}: ${amount.error.message}`);
  const status = cell('status');
  if (status === '') throw new OperatorCsvError(`${where}: status is empty`);
  return { line, transactionId: Number(id), command, amountMinor: amount.minor, currency, status };
}

export function parseOperatorCsv(text: string): OperatorRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = fields(lines[0] ?? '');
  const index: Record<string, number> = {};
  header.forEach((name, position) => (index[name] = position));
  const missing = OPERATOR_CSV_COLUMNS.filter((name) => index[name] === undefined);
  if (missing.length > 0)
    throw new OperatorCsvError(
      `the header lacks ${missing.join(', ')}: the file needs the columns ${OPERATOR_CSV_COLUMNS.join(', ')}`,
    );
  const rows: OperatorRow[] = [];
  lines.slice(1).forEach((line, offset) => {
    if (line.trim() !== '') rows.push(row(fields(line), index, offset + 2));
  });
  return rows;
}
