/**
 * The terms an operator may grant (D6 amended): the bonus call's currency is one the
 * operator allows, its base bet is a bet level of every one of its games in that currency, and
 * callAmount and baseBetAmount stay within the operator's limits for that currency. Pure
 * functions, called by the gateway (the early answer) and by the ledger's decider (the
 * authority), so both refuse with the same code and details.
 */
import { formatAmount, tryParseAmount } from '@reelstream/money';
import { refusal, type ErrorDetail, type Refusal } from '@reelstream/contracts';

/** An operator's limits in units of one currency; an absent key takes the default below. */
interface CurrencyLimits {
  readonly maxCallAmount?: number | undefined;
  readonly maxBaseBetAmount?: number | undefined;
}

/** What the operator configuration says about the money of a registration. */
export interface OperatorTerms {
  /** The currencies a bonus call may be denominated in (the operator's default among them). */
  readonly currencies: readonly string[];
  /** By currency code. */
  readonly limits: Readonly<Record<string, CurrencyLimits>>;
}

/** A game of the bonus call with its bet levels in the bonus call's currency (minor units, ascending). */
export interface GameBetLevels {
  readonly gameId: number;
  readonly betLevelsMinor: readonly number[];
}

/**
 * Without a configured maxCallAmount, a bonus may pay at most this many of the highest bet
 * level its games offer in its currency: a default in the currency's own scale, with no rate.
 */
export const DEFAULT_MAX_CALL_IN_TOP_BETS = 1_000;

export interface EffectiveLimits {
  readonly maxCallAmountMinor: number;
  readonly maxBaseBetAmountMinor: number;
  /** Where each came from, for the error detail. */
  readonly callSource: string;
  readonly baseBetSource: string;
}

export function currencyRefusal(currency: string, terms: OperatorTerms): Refusal | undefined {
  if (terms.currencies.includes(currency)) return undefined;
  return refusal(
    'CURRENCY_NOT_ALLOWED',
    `bonus calls of this operator are in ${terms.currencies.join(', ')}, not ${currency}`,
    { details: [{ path: 'currency', message: `must be one of ${terms.currencies.join(', ')}` }] },
  );
}

/** baseBetAmount must be a level of every game (wins are never rounded); the details list each game's levels. */
export function betLevelRefusal(
  baseBetAmountMinor: number,
  currency: string,
  games: readonly GameBetLevels[],
): Refusal | undefined {
  const lacking = games.filter((game) => !game.betLevelsMinor.includes(baseBetAmountMinor));
  if (lacking.length === 0) return undefined;
  const list = (levels: readonly number[]) =>
    levels.length === 0 ? 'none' : levels.map((minor) => formatAmount(minor, currency)).join(', ');
  const common = games.reduce<readonly number[]>(
    (shared, game) => shared.filter((level) => game.betLevelsMinor.includes(level)),
    games[0]?.betLevelsMinor ?? [],
  );
  const details: ErrorDetail[] = lacking.map((game) => ({
    path: 'metaData.baseBetAmount',
    message: `game ${game.gameId} offers ${list(game.betLevelsMinor)} ${currency}`,
  }));
  details.push({
    path: 'metaData.baseBetAmount',
    message: `levels every game of the bonus offers: ${list(common)} ${currency}`,
  });
  return refusal(
    'BET_LEVEL_NOT_AVAILABLE',
    `baseBetAmount ${formatAmount(baseBetAmountMinor, currency)} ${currency} is not a bet level of every game of the bonus call`,
    { details },
  );
}

/** The configured limits for the currency in minor units, each missing one from the games' highest level. */
export function effectiveLimits(
  currency: string,
  terms: OperatorTerms,
  games: readonly GameBetLevels[],
): EffectiveLimits {
  const configured = terms.limits[currency] ?? {};
  const topLevelMinor = Math.max(0, ...games.flatMap((game) => game.betLevelsMinor));
  const minorOf = (value: number, key: string): number => {
    const parsed = tryParseAmount(value, currency);
    // The operator configuration checks the decimals at start-up: this is a fault.
    if (!parsed.ok) throw new Error(`limits.${currency}.${key} ${value}: ${parsed.error.message}`);
    return parsed.minor;
  };
  return {
    maxCallAmountMinor:
      configured.maxCallAmount === undefined
        ? topLevelMinor * DEFAULT_MAX_CALL_IN_TOP_BETS
        : minorOf(configured.maxCallAmount, 'maxCallAmount'),
    maxBaseBetAmountMinor:
      configured.maxBaseBetAmount === undefined
        ? topLevelMinor
        : minorOf(configured.maxBaseBetAmount, 'maxBaseBetAmount'),
    callSource:
      configured.maxCallAmount === undefined
        ? `default: ${DEFAULT_MAX_CALL_IN_TOP_BETS} × the highest bet level of the games`
        : `limits.${currency}.maxCallAmount`,
    baseBetSource:
      configured.maxBaseBetAmount === undefined
        ? 'default: the highest bet level of the games'
        : `limits.${currency}.maxBaseBetAmount`,
  };
}

/** callAmount first, then baseBetAmount (null for a Regular Bonus Call). */
export function limitRefusal(
  amounts: { readonly callAmountMinor: number; readonly baseBetAmountMinor: number | null; readonly currency: string },
  terms: OperatorTerms,
  games: readonly GameBetLevels[],
): Refusal | undefined {
  const { currency } = amounts;
  const limits = effectiveLimits(currency, terms, games);
  const money = (minor: number) => `${formatAmount(minor, currency)} ${currency}`;
  if (amounts.callAmountMinor > limits.maxCallAmountMinor) {
    return refusal(
      'CALL_AMOUNT_LIMIT_EXCEEDED',
      `callAmount ${money(amounts.callAmountMinor)} is above the operator's maxCallAmount of ${money(limits.maxCallAmountMinor)}`,
      {
        details: [
          { path: 'callAmount', message: `at most ${money(limits.maxCallAmountMinor)} (${limits.callSource})` },
        ],
      },
    );
  }
  if (amounts.baseBetAmountMinor !== null && amounts.baseBetAmountMinor > limits.maxBaseBetAmountMinor) {
    return refusal(
      'BASE_BET_LIMIT_EXCEEDED',
      `baseBetAmount ${money(amounts.baseBetAmountMinor)} is above the operator's maxBaseBetAmount of ${money(limits.maxBaseBetAmountMinor)}`,
      {
        details: [
          {
            path: 'metaData.baseBetAmount',
            message: `at most ${money(limits.maxBaseBetAmountMinor)} (${limits.baseBetSource})`,
          },
        ],
      },
    );
  }
  return undefined;
}
