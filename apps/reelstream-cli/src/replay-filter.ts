/** The filter options every log-reading command shares, and their checks (exit 2 on bad input). */
import { StreamCategories, type StreamCategory } from '@reelstream/contracts';
import {
  parseTimeArgument,
  rangeResolver,
  instantIn,
  resolveDayWord,
  TimeArgumentError,
} from '@reelstream/analytics-application';
import type { ReplayFilter } from '@reelstream/analytics-domain';
import { CliError } from './cli-error.js';
import { valueOptions } from './command-line.js';
import type { Operators } from './settings.js';

export const FILTER_OPTIONS = {
  ...valueOptions('from', 'to', 'at', 'operator', 'player', 'game', 'provider'),
  category: { type: 'string', multiple: true },
} as const;

export const FILTER_USAGE = `  --from <time>           events at or after (operator time zone unless the time has Z or an offset)
  --to <time>             events before; a date alone includes that whole day
  --at <time>             the state as of that moment (events up to it)
                          times: YYYY-MM-DD, "YYYY-MM-DD HH:mm[:ss]", or ISO-8601 with Z/±HH:mm;
                          today / yesterday: midnight starting that UTC date, in each operator's
                          zone (--from yesterday --to today: yesterday's whole day)
  --operator <id>         one operator
  --player <id>           one player (with --operator when ids repeat across operators)
  --game <gameId>         one game (and the bonus calls that name it among their games)
  --provider <providerId> one provider
  --category <name>       ${Object.values(StreamCategories).join(' | ')} (repeatable)
                          a filter naming an operator, player, game or provider that matches no
                          event is an error (exit 2); a time range with no event says so on stderr`;

interface FilterValues {
  from?: string | undefined;
  to?: string | undefined;
  at?: string | undefined;
  operator?: string | undefined;
  player?: string | undefined;
  game?: string | undefined;
  provider?: string | undefined;
  category?: string[] | undefined;
}

function catalogIdOption(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(value))
    throw new CliError(`${option} ${JSON.stringify(value)} is not a positive integer id`);
  return Number(value);
}

function categoriesOf(values: readonly string[] | undefined): StreamCategory[] | undefined {
  if (!values) return undefined;
  const known = Object.values(StreamCategories) as string[];
  for (const value of values)
    if (!known.includes(value)) throw new CliError(`unknown --category ${value}: use ${known.join(', ')}`);
  return values as StreamCategory[];
}

export function buildFilter(values: FilterValues, operators: Operators): ReplayFilter {
  const filter: ReplayFilter = {};
  try {
    const now = Date.now();
    const from = values.from === undefined ? undefined : parseTimeArgument('--from', resolveDayWord(values.from, now));
    const to = values.to === undefined ? undefined : parseTimeArgument('--to', resolveDayWord(values.to, now));
    const rangeOf = from || to ? rangeResolver(from, to, operators.timeZoneOf) : undefined;
    if (rangeOf) {
      // Checked in the zone of the operator asked for (or UTC): the order is the same in every zone but a DST edge.
      const { fromMs, toMs } = rangeOf(values.operator);
      if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs)
        throw new CliError(`--from ${values.from} is not before --to ${values.to}`);
      filter.rangeOf = rangeOf;
    }
    if (values.at !== undefined) {
      const zone = values.operator === undefined ? 'UTC' : operators.timeZoneOf(values.operator);
      filter.atMs = instantIn(parseTimeArgument('--at', values.at), zone);
    }
  } catch (error) {
    if (error instanceof TimeArgumentError) throw new CliError(error.message);
    throw error;
  }
  if (values.operator !== undefined) filter.operatorId = values.operator;
  if (values.player !== undefined) filter.playerId = values.player;
  const gameId = catalogIdOption('--game', values.game);
  if (gameId !== undefined) filter.gameId = gameId;
  const providerId = catalogIdOption('--provider', values.provider);
  if (providerId !== undefined) filter.providerId = providerId;
  const categories = categoriesOf(values.category);
  if (categories) filter.categories = categories;
  return filter;
}

/** The filter options given, as typed: `--player nobody --game 999`. */
export function describeFilter(values: FilterValues): string {
  const parts: string[] = [];
  for (const option of ['operator', 'player', 'game', 'provider', 'from', 'to', 'at'] as const) {
    const value = values[option];
    if (value !== undefined) parts.push(`--${option} ${value}`);
  }
  for (const category of values.category ?? []) parts.push(`--category ${category}`);
  return parts.join(' ');
}

/** Whether the filter names a subject (operator, player, game, provider): matching nothing is then a mistake. */
function namesSubject(values: FilterValues): boolean {
  return [values.operator, values.player, values.game, values.provider].some((value) => value !== undefined);
}

/** `--operator` names an operator neither configured nor in the log: an error (exit 2), not an empty report. */
export function checkOperatorKnown(
  operatorId: string | undefined,
  operators: Pick<Operators, 'has' | 'source'>,
  inLog: ReadonlySet<string>,
): void {
  if (operatorId !== undefined && !operators.has(operatorId) && !inLog.has(operatorId))
    throw new CliError(
      `unknown operator ${operatorId}: not configured (operators from ${operators.source}) and not in the log`,
    );
}

/**
 * A filter that kept no event: with a subject (`--player nobody`, `--game 999`) an error (exit 2),
 * with only a time range or categories a line on stderr (an idle day is an answer).
 */
export function checkSomethingMatched(
  values: FilterValues,
  stats: { seen: number; counted: number },
  stderr: NodeJS.WritableStream,
): void {
  const described = describeFilter(values);
  if (described === '' || stats.counted > 0) return;
  const message = `no event of the ${stats.seen.toLocaleString('en')} in the log matches ${described}`;
  if (namesSubject(values)) throw new CliError(message);
  stderr.write(`reelstream: ${message}: the reports are empty\n`);
}
