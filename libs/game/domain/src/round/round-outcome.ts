import type { Profile } from '../profile.js';

/**
 * What a round produced, complete enough to show it, settle it and audit it. `draws` is every
 * value the round took from its `Rng`, in order: `replayRound` turns them back into this outcome.
 * All pays are in coins; `winMinor` is the only amount in money (see `coinsToMinor`).
 */
export type RoundOutcome = SlotOutcome | InstantOutcome;

/** The part of an outcome that decides it: with the model, everything else follows. */
export interface RoundRecord {
  readonly modelId: string;
  readonly profile: Profile;
  readonly betMinor: number;
  readonly draws: readonly number[];
}

interface OutcomeBase extends RoundRecord {
  readonly coinsPerBet: number;
  readonly winCoins: number;
  readonly winMinor: number;
}

export interface SlotOutcome extends OutcomeBase {
  readonly kind: 'slot';
  readonly base: SlotSpin;
  readonly bonus: BonusRound | null;
}

export interface SlotSpin {
  readonly stops: readonly number[];
  /** Visible symbols, one string per reel, top row first (`["AKW", "QSJ", …]`). */
  readonly window: readonly string[];
  /** Paytable coins of each paying line, before the multiplier. */
  readonly lineWins: readonly LineWin[];
  readonly scatterCount: number;
  /** Paytable coins of the scatters, before the multiplier. */
  readonly scatterWinCoins: number;
  readonly multiplier: number;
  /** (line wins + scatter win) × multiplier. */
  readonly winCoins: number;
}

export interface LineWin {
  /** Index into the model's paylines. */
  readonly line: number;
  readonly symbol: string;
  readonly count: number;
  readonly coins: number;
}

export interface BonusRound {
  readonly triggeredBy: number;
  readonly awardedGames: number;
  readonly multiplier: number;
  readonly spins: readonly SlotSpin[];
  readonly winCoins: number;
}

export interface InstantOutcome extends OutcomeBase {
  readonly kind: 'instant';
  readonly segment: number;
  /** Segment pay in coins; the win multiplier is multiplierCoins / coinsPerBet. */
  readonly multiplierCoins: number;
}

/** An outcome before its draws are attached (what the engines compute). */
export type UnrecordedOutcome = Omit<SlotOutcome, 'draws'> | Omit<InstantOutcome, 'draws'>;

export function recordOf(outcome: RoundOutcome): RoundRecord {
  return { modelId: outcome.modelId, profile: outcome.profile, betMinor: outcome.betMinor, draws: [...outcome.draws] };
}
