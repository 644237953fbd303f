/**
 * `npm run wallet:redrive -- [--list | --dry-run] [--operator X] [--since T]`: re-drives the wins
 * still dead-lettered (D11) through the running dispatcher and prints a line per win as
 * its outcome comes in. `--list` prints the dead letters; `--dry-run` says what a re-drive would
 * do; neither sends anything. `--since` takes an ISO-8601 time or an age such as `30m`, `12h`, `7d`.
 */
import { parseArgs } from 'node:util';
import { formatAmountString } from '@reelstream/money';
import type { Clock, EventStore, MessageBus } from '@reelstream/platform-ports';
import type { WalletDeadLetter } from '@reelstream/contracts';
import {
  findDeadLetteredWins,
  notRedrivable,
  redriveDeadLetters,
  type RedriveSummary,
} from '@reelstream/wallet-application';

export const REDRIVE_USAGE =
  'usage: npm run wallet:redrive -- [--list | --dry-run] [--operator <operatorId>] [--since <ISO-8601 time | 30m | 12h | 7d>] [--concurrency <n>] [--timeout-ms <ms>]';

/** `redrive` sends; `list` and `dry-run` only read the event log. */
type RedriveMode = 'redrive' | 'list' | 'dry-run';

export interface RedriveArguments {
  mode: RedriveMode;
  operatorId?: string;
  since?: Date;
  concurrency: number;
  timeoutMs: number;
}

const AGE = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function parseSince(text: string, now: Date): Date {
  const age = AGE.exec(text);
  if (age) return new Date(now.getTime() - Number(age[1]) * UNIT_MS[age[2] as keyof typeof UNIT_MS]);
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(text))
    throw new Error(`--since ${JSON.stringify(text)} is neither an ISO-8601 time nor an age such as 30m, 12h, 7d`);
  return new Date(ms);
}

export function parseRedriveArguments(argv: readonly string[], now: Date): RedriveArguments {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      list: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      operator: { type: 'string' },
      since: { type: 'string' },
      concurrency: { type: 'string' },
      'timeout-ms': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const positive = (name: string, text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(text)}`);
    return value;
  };
  if (values.list === true && values['dry-run'] === true) throw new Error('--list and --dry-run exclude each other');
  return {
    mode: values.list === true ? 'list' : values['dry-run'] === true ? 'dry-run' : 'redrive',
    ...(values.operator === undefined ? {} : { operatorId: values.operator }),
    ...(values.since === undefined ? {} : { since: parseSince(values.since, now) }),
    concurrency: positive('concurrency', values.concurrency, 4),
    timeoutMs: positive('timeout-ms', values['timeout-ms'], 60_000),
  };
}

function scopeOf(args: RedriveArguments): string {
  return [
    args.operatorId === undefined ? 'every operator' : `operator ${args.operatorId}`,
    args.since === undefined ? '' : `dead-lettered since ${args.since.toISOString()}`,
  ]
    .filter(Boolean)
    .join(', ');
}

function describeWin(letter: WalletDeadLetter): string {
  const { request } = letter;
  return `win ${letter.transactionId} (operator ${letter.operatorId}, player ${letter.playerId}, ${formatAmountString(request.command === 'win' ? request.amountMinor : 0, request.currency)} ${request.currency})`;
}

const filterOf = (args: RedriveArguments) => ({
  ...(args.operatorId === undefined ? {} : { operatorId: args.operatorId }),
  ...(args.since === undefined ? {} : { since: args.since }),
});

/** `--list`: one line per dead letter, oldest first: transactionId, operator, player, amount, currency, reason, when, last error. */
export async function listDeadLetters(
  store: EventStore,
  args: RedriveArguments,
  out: (line: string) => void,
): Promise<WalletDeadLetter[]> {
  const letters = await findDeadLetteredWins(store, filterOf(args));
  out(`${letters.length} dead-lettered win(s) of ${scopeOf(args)}`);
  for (const letter of letters) {
    const { request } = letter;
    const amount = formatAmountString(request.command === 'win' ? request.amountMinor : 0, request.currency);
    out(
      `${letter.transactionId}  operator ${letter.operatorId}  player ${letter.playerId}  ${amount} ${request.currency}  ${letter.reason}  ${letter.deadLetteredAt}  attempts ${letter.attempts}  last error: ${letter.lastError}`,
    );
  }
  return letters;
}

/** `--dry-run`: what a re-drive would send and what it would leave, without sending anything. */
export async function dryRunRedrive(
  store: EventStore,
  args: RedriveArguments,
  out: (line: string) => void,
): Promise<WalletDeadLetter[]> {
  const letters = await findDeadLetteredWins(store, filterOf(args));
  out(
    `dry run: would re-drive ${letters.filter((letter) => notRedrivable(letter) === undefined).length} of ${letters.length} dead-lettered win(s) of ${scopeOf(args)}; nothing is sent`,
  );
  for (const letter of letters) {
    const blocked = notRedrivable(letter);
    out(
      `${describeWin(letter)}, ${letter.reason}: ${blocked === undefined ? 'would re-drive' : `would not re-drive: ${blocked}`}`,
    );
  }
  return letters;
}

export async function runRedrive(
  deps: { store: EventStore; bus: MessageBus; clock: Clock },
  args: Omit<RedriveArguments, 'mode'>,
  out: (line: string) => void,
): Promise<RedriveSummary> {
  const scope = scopeOf({ ...args, mode: 'redrive' });
  const summary = await redriveDeadLetters(deps, {
    ...filterOf({ ...args, mode: 'redrive' }),
    concurrency: args.concurrency,
    timeoutMs: args.timeoutMs,
    onStart: (letters) => out(`re-driving ${letters.length} dead-lettered win(s) of ${scope}`),
    onProgress: ({ done, total, letter, outcome }) => {
      const { request } = letter;
      const result =
        outcome.kind === 'applied'
          ? `applied, balance ${formatAmountString(outcome.reply.balanceMinor ?? 0, request.currency)}`
          : outcome.kind === 'failed'
            ? `failed again: ${outcome.reply.statusCode}${outcome.reply.reason === undefined ? '' : ` (${outcome.reply.reason})`}`
            : `no answer: ${outcome.error}`;
      out(`[${done}/${total}] ${describeWin(letter)}: ${result}`);
    },
  });
  out(
    `done: ${summary.applied} applied, ${summary.failed} failed again, ${summary.noAnswer} without answer, of ${summary.total}`,
  );
  return summary;
}
