/**
 * The player's bonus account: every bonus call of one player (the `playerBonus` stream). Keeping
 * them in one aggregate makes "one active bonus call per player" a single expected-revision check.
 */
import type { BonusCallStatusName } from '@reelstream/contracts';
import { subtractMinor } from '@reelstream/money';
import type { BonusCallTerms } from './terms.js';

type CompletionReason = 'spins_used' | 'win_cap_reached' | 'target_reached';

interface SettledSpin {
  readonly rawWinMinor: number;
  readonly winMinor: number;
  readonly totalWinMinor: number;
  readonly spinsLeft: number;
  readonly transactionId: number;
}

export interface FreeSpinRound {
  readonly roundId: number;
  readonly gameId: number;
  readonly spinNumber: number;
  /** The win cap left when the spin started. */
  readonly winCapLeftMinor: number;
  readonly settled: SettledSpin | null;
}

/** A paid spin steered by a Regular Bonus Call (ADR 0012): what it delivered and the outcome it was settled with. */
export interface SteeredRound {
  readonly roundId: number;
  readonly gameId: number;
  readonly spinNumber: number;
  readonly betMinor: number;
  readonly reelWinMinor: number;
  readonly topUpMinor: number;
  readonly winMinor: number;
  readonly totalWinMinor: number;
  /** The engine's record of the round, as RoundSettled carries it. */
  readonly outcome: unknown;
}

export interface BonusCall extends BonusCallTerms {
  readonly registeredAt: string;
  readonly status: BonusCallStatusName;
  /** Spins started (a started spin is used); for a Regular Bonus Call, its steered spins. */
  readonly spinsUsed: number;
  /** Spins whose win was decided. */
  readonly spinsSettled: number;
  readonly totalWinMinor: number;
  /** The spin started and not yet settled, if any. */
  readonly openRoundId: number | null;
  /** Every free-spin round, by roundId: how a retried Start/Settle is recognised. */
  readonly rounds: ReadonlyMap<number, FreeSpinRound>;
  /** Every steered paid spin of a Regular Bonus Call, by roundId. */
  readonly steeredRounds: ReadonlyMap<number, SteeredRound>;
  readonly completedAt: string | null;
  readonly completionReason: CompletionReason | null;
  readonly canceledAt: string | null;
  readonly expiredAt: string | null;
}

export interface PlayerBonusAccount {
  readonly bonuses: ReadonlyMap<number, BonusCall>;
  /** The one active bonus call of the player, if any. */
  readonly activeIssueId: number | null;
}

export function initialState(): PlayerBonusAccount {
  return { bonuses: new Map(), activeIssueId: null };
}

export function activeBonus(account: PlayerBonusAccount): BonusCall | undefined {
  return account.activeIssueId === null ? undefined : account.bonuses.get(account.activeIssueId);
}

/** callAmount − wins so far: what the remaining spins may still pay (the read model's `winCapLeftMinor` too). */
export function winCapLeftMinor(bonus: Pick<BonusCall, 'callAmountMinor' | 'totalWinMinor'>): number {
  return subtractMinor(bonus.callAmountMinor, bonus.totalWinMinor);
}

/** Spins not started yet; null for a Regular Bonus Call, which has no spin count (the read model's too). */
export function spinsLeft(bonus: Pick<BonusCall, 'spinAmount' | 'spinsUsed'>): number | null {
  return bonus.spinAmount === null ? null : bonus.spinAmount - bonus.spinsUsed;
}

/** Instants are ISO-8601 UTC strings of possibly different precision: compare them as times. */
export function isAtOrAfter(instant: string, reference: string): boolean {
  return Date.parse(instant) >= Date.parse(reference);
}
