import { AmountError } from '@reelstream/money';

export interface CappedWin {
  readonly winMinor: number;
  /** True when the win was cut down to what is left of the cap. */
  readonly capped: boolean;
}

/**
 * A free-spin bonus pays at most its win cap over all its spins: a spin pays its win or what is
 * left of the cap, whichever is smaller. The bonus ledger enforces the same rule on its own
 * state; this is the game's side of it.
 */
export function capWin(winMinor: number, winCapLeftMinor: number): CappedWin {
  for (const [name, value] of [
    ['winMinor', winMinor],
    ['winCapLeftMinor', winCapLeftMinor],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new AmountError('AMOUNT_INVALID', `${name} must be a non-negative integer of minor units, got ${value}`);
  }
  return winMinor > winCapLeftMinor ? { winMinor: winCapLeftMinor, capped: true } : { winMinor, capped: false };
}
