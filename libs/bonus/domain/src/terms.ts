/**
 * What a registration fixes about a bonus call (spec §2.1): the same fields in the
 * RegisterBonusCall command, the BonusCallRegistered event, the player's account and the status
 * read model, copied from one to the next by `termsOf` alone.
 */
import type { BonusType } from '@reelstream/contracts';

export interface BonusCallTerms {
  /** Drawn by the ledger (or taken from the platformId guard on a resend, D17). */
  readonly issueId: number;
  readonly platformId: string;
  readonly operatorId: string;
  readonly playerId: string;
  readonly providerId: number;
  readonly gameIds: readonly number[];
  readonly bonusType: BonusType;
  readonly currency: string;
  readonly callAmountMinor: number;
  /** Spins granted; required for bonusType 1, null for bonusType 2. */
  readonly spinAmount: number | null;
  readonly baseBetAmountMinor: number | null;
  readonly expireAt: string;
}

/** The terms of `source` and nothing else (a command or an event carries more), with its own copy of the game list. */
export function termsOf(source: BonusCallTerms): BonusCallTerms & { gameIds: number[] } {
  return {
    issueId: source.issueId,
    platformId: source.platformId,
    operatorId: source.operatorId,
    playerId: source.playerId,
    providerId: source.providerId,
    gameIds: [...source.gameIds],
    bonusType: source.bonusType,
    currency: source.currency,
    callAmountMinor: source.callAmountMinor,
    spinAmount: source.spinAmount,
    baseBetAmountMinor: source.baseBetAmountMinor,
    expireAt: source.expireAt,
  };
}
