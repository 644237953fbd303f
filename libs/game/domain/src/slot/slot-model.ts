import type { Profile } from '../profile.js';

/**
 * A slot's math, as a designer writes it down. Everything the engine and the RTP calculator
 * need is here and nothing else: the same definition drives play, replay, simulation and the
 * exact theoretical RTP, so they cannot drift apart.
 *
 * Coins: every pay is an integer number of coins; one paid spin costs `coinsPerBet` coins.
 * A win of `c` coins at a bet of `b` minor units pays floor(b · c / coinsPerBet) minor units
 * (see `coinsToMinor`).
 */
export interface SlotModel {
  readonly kind: 'slot';
  readonly id: string;
  readonly name: string;
  /** Visible rows per reel; a reel shows `rows` consecutive strip positions from its stop down, wrapping. */
  readonly rows: number;
  /** Single-character symbol codes; exactly one wild and one scatter. */
  readonly symbols: readonly SlotSymbol[];
  /** One row index per reel for every payline, left to right. */
  readonly paylines: readonly (readonly number[])[];
  /**
   * Left-to-right line pays in coins, by symbol code and run length (`{ A: { 3: 5, 4: 10, 5: 25 } }`).
   * The wild substitutes for every symbol but the scatter and pays its own run when that pays more.
   */
  readonly linePays: Readonly<Record<string, Readonly<Record<number, number>>>>;
  /**
   * Scatter pays in coins by the number of scatters visible anywhere (`{ 3: 40, 4: 200 }`);
   * k scatters pay the entry of the largest listed count ≤ k.
   */
  readonly scatterPays: Readonly<Record<number, number>>;
  readonly bonus: BonusRule;
  readonly coinsPerBet: number;
  readonly profiles: Readonly<Record<Profile, SlotProfile>>;
}

export interface SlotSymbol {
  readonly code: string;
  readonly name: string;
  readonly role: 'wild' | 'scatter' | 'regular';
}

/**
 * The slot's own feature: k visible scatters in the paid spin award the bonus games listed for
 * the largest count ≤ k (none below the smallest listed count). Bonus games play on the same
 * profile's strips, every win in them is multiplied by `multiplier`, and they cannot retrigger.
 * These are the game's own feature spins, not the operator-registered free-spin bonuses.
 */
interface BonusRule {
  readonly freeGames: Readonly<Record<number, number>>;
  readonly multiplier: number;
}

interface SlotProfile {
  /** The RTP this profile is tuned to; `theoreticalRtp` proves it. */
  readonly targetRtp: number;
  /** One strip per reel, one symbol code per character; stops are uniform over the strip. */
  readonly reels: readonly string[];
}
