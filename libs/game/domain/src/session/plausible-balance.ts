/**
 * Which balances of an operator's wallet the game page may show (docs/adr/0024-implausible-wallet-balances.md).
 * The wallet is the source of truth (spec §7) and reelstream never moves money by a balance, but a
 * balance the player could not have is a fault of the wallet, not news for the player: a negative
 * one, one above a sanity ceiling, or one that is not a whole number of the currency's minor units.
 * More decimals than the currency as the wallet sent it is not one of them: D25 rounds it (a
 * wallet computing in binary floating point), so what reaches this rule is already rounded.
 */
import { currencyExponent } from '@reelstream/money';

/**
 * The default ceiling, in currency units of any currency: a trillion. No player's balance comes
 * near it in any currency (in the currencies of the largest units it is tens of millions of
 * dollars), while wallets' broken numbers (`1e15`, `MAX_SAFE_INTEGER`, a balance in the wrong unit) do.
 */
export const DEFAULT_BALANCE_CEILING_UNITS = 1_000_000_000_000;

export type BalanceImplausibility = 'negative' | 'above_ceiling' | 'not_whole_minor_units';

/** Why `balanceMinor` cannot be a player's balance in `currency`, or undefined when it can. */
export function balanceImplausibility(
  balanceMinor: number,
  currency: string,
  ceilingUnits: number = DEFAULT_BALANCE_CEILING_UNITS,
): BalanceImplausibility | undefined {
  if (!Number.isSafeInteger(balanceMinor)) return 'not_whole_minor_units';
  if (balanceMinor < 0) return 'negative';
  if (balanceMinor > ceilingUnits * 10 ** currencyExponent(currency)) return 'above_ceiling';
  return undefined;
}
