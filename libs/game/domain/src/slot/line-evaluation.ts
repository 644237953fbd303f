/** The pay of one payline, or none: the rule a player reads on the paytable page. */
export interface LinePay {
  readonly symbol: number;
  readonly count: number;
  readonly coins: number;
}

export interface LineRules {
  readonly wild: number;
  readonly scatter: number;
  /** pays[symbol][count] in coins; 0 where the run does not pay. */
  readonly pays: readonly (readonly number[])[];
}

/**
 * Left to right from the first reel: a run of the first non-wild symbol, with wilds standing in
 * for it, pays by its length; a leading run of wilds pays as wilds. The scatter never belongs to
 * a line and breaks any run. Of the two readings the one paying more wins (ties go to the symbol).
 */
export function evaluateLine(symbols: ArrayLike<number>, rules: LineRules): LinePay | null {
  // A read past the last reel is undefined, which is no symbol: the runs end there by themselves.
  let leadingWilds = 0;
  while (symbols[leadingWilds] === rules.wild) leadingWilds++;
  const wildCoins = payOf(rules, rules.wild, leadingWilds);

  let symbolPay: LinePay | null = null;
  const first = symbols[leadingWilds];
  if (first !== undefined && first !== rules.scatter) {
    let count = leadingWilds + 1;
    while (symbols[count] === first || symbols[count] === rules.wild) count++;
    const coins = payOf(rules, first, count);
    if (coins > 0) symbolPay = { symbol: first, count, coins };
  }

  if (symbolPay && symbolPay.coins >= wildCoins) return symbolPay;
  return wildCoins > 0 ? { symbol: rules.wild, count: leadingWilds, coins: wildCoins } : null;
}

function payOf(rules: LineRules, symbol: number, count: number): number {
  return rules.pays[symbol]?.[count] ?? 0;
}
