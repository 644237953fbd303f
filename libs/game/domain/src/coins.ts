import { AmountError, multiplyMinor } from '@reelstream/money';

/**
 * Converts a win in coins to minor units at the round's bet: floor(betMinor · coins / coinsPerBet).
 *
 * Rounding: down, always, so the platform never pays a fraction of a minor unit it does not
 * have; the fraction (below one minor unit per round) stays with the house. It is exact, with no
 * rounding at all, whenever betMinor is a multiple of `exactBetStepMinor` of the game model — true
 * for every bet level of the catalog (tested), so only off-catalog bets (an operator's free-spin
 * baseBetAmount) can lose a fraction. Integer arithmetic only: `%` on safe integers is exact.
 */
export function coinsToMinor(betMinor: number, coins: number, coinsPerBet: number): number {
  if (!Number.isSafeInteger(coinsPerBet) || coinsPerBet < 1)
    throw new AmountError('AMOUNT_INVALID', `coinsPerBet must be a positive integer, got ${coinsPerBet}`);
  if (!Number.isSafeInteger(coins) || coins < 0)
    throw new AmountError('AMOUNT_INVALID', `coins must be a non-negative integer, got ${coins}`);
  const scaled = multiplyMinor(betMinor, coins);
  return (scaled - (scaled % coinsPerBet)) / coinsPerBet;
}

/** Bet sizes (in minor units) for which every possible win converts without rounding. */
export function exactBetStep(coinsPerBet: number, coinGranularity: number): number {
  return coinsPerBet / gcd(coinsPerBet, coinGranularity);
}

export function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}
