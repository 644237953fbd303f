/**
 * Events of the bonus-ledger (docs/architecture.md "Data"): the `playerBonus` stream (all bonus calls of one
 * player, the aggregate behind "one active bonus per player") and the `bonusRequest` stream
 * (platformId uniqueness and idempotent registration, D17). Version 1 unless stated.
 */
import * as z from 'zod';
import { BonusTypes, platformId } from '../api/bonus-call.js';
import { bonusCallTermsShape, bonusGameIds } from '../commands/bonus-record.js';
import {
  catalogId,
  currencyCode,
  isoInstant,
  longId,
  minorAmount,
  operatorPlayer,
  playerId,
  positiveMinorAmount,
  sha256Hex,
} from '../shared/primitives.js';
import { eventOf } from './metadata.js';

const spinCount = z.number().int().min(0).max(100);
const spinNumber = z.number().int().min(1).max(100);

export const bonusCallRegisteredData = z
  .strictObject({
    ...bonusCallTermsShape,
    gameIds: bonusGameIds,
    expireAt: isoInstant,
    registeredAt: isoInstant,
  })
  .superRefine((data, ctx) => {
    if (data.bonusType === BonusTypes.freeSpin && (data.spinAmount === null || data.baseBetAmountMinor === null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['spinAmount'],
        message: 'a Free Spin Bonus has spinAmount and baseBetAmountMinor',
      });
    }
  });

/**
 * Version 0 (legacy, before D4 allowed several games): one `gameId` and always a Free Spin
 * Bonus with its spin fields. Kept so events written then still read; upcast to v1.
 */
export const bonusCallRegisteredDataV0 = z.strictObject({
  issueId: longId,
  platformId,
  ...operatorPlayer,
  providerId: catalogId,
  gameId: catalogId,
  bonusType: z.literal(1),
  currency: currencyCode,
  callAmountMinor: positiveMinorAmount,
  spinAmount: z.number().int().min(1).max(100),
  baseBetAmountMinor: positiveMinorAmount,
  expireAt: isoInstant,
  registeredAt: isoInstant,
});

export const freeSpinStartedData = z.strictObject({
  issueId: longId,
  roundId: longId,
  gameId: catalogId,
  spinNumber,
  baseBetAmountMinor: positiveMinorAmount,
  winCapLeftMinor: minorAmount,
  startedAt: isoInstant,
});

export const freeSpinSettledData = z
  .strictObject({
    issueId: longId,
    roundId: longId,
    gameId: catalogId,
    spinNumber,
    /** What the reels paid. */
    rawWinMinor: minorAmount,
    /** What is credited: rawWinMinor capped by the win cap left. */
    winMinor: minorAmount,
    totalWinMinor: minorAmount,
    spinsLeft: spinCount,
    settledAt: isoInstant,
    /**
     * The transactionId of this spin's `win` callback (D10), drawn when the spin was settled and
     * fixed here, so the ledger's relay publishes the same wallet request however often it runs.
     */
    transactionId: longId,
  })
  .superRefine((data, ctx) => {
    if (data.winMinor > data.rawWinMinor)
      ctx.addIssue({ code: 'custom', path: ['winMinor'], message: 'winMinor cannot exceed rawWinMinor' });
    if (data.winMinor > data.totalWinMinor)
      ctx.addIssue({ code: 'custom', path: ['totalWinMinor'], message: 'totalWinMinor includes winMinor' });
  });

/**
 * A paid spin steered by a Regular Bonus Call (bonusType 2, docs/adr/0012-regular-bonus-call-outcomes.md):
 * decided on the player's stream after the operator took the spin's bet, before the round is
 * settled, with the outcome the round is settled with (so a spin interrupted after it is settled
 * with the same result). Its bet and win are the round's own wallet transactions (bonusId = issueId);
 * this event sends no wallet request.
 */
export const regularBonusSpinSettledData = z
  .strictObject({
    issueId: longId,
    roundId: longId,
    gameId: catalogId,
    /** This spin's number under the bonus call, from 1. */
    spinNumber: z.number().int().min(1),
    betMinor: positiveMinorAmount,
    /** What the reels paid: the outcome's win. */
    reelWinMinor: minorAmount,
    /** Paid on top on the spin that completes the bonus when no real result pays exactly what was left (ADR 0012). */
    topUpMinor: minorAmount,
    /** reelWinMinor + topUpMinor: what the spin delivers and the round's win. */
    winMinor: minorAmount,
    totalWinMinor: minorAmount,
    /** The engine's record of the round (as in RoundSettled). */
    outcome: z.json(),
    settledAt: isoInstant,
  })
  .superRefine((data, ctx) => {
    if (data.winMinor !== data.reelWinMinor + data.topUpMinor)
      ctx.addIssue({ code: 'custom', path: ['winMinor'], message: 'winMinor is reelWinMinor + topUpMinor' });
    if (data.winMinor > data.totalWinMinor)
      ctx.addIssue({ code: 'custom', path: ['totalWinMinor'], message: 'totalWinMinor includes winMinor' });
  });

const BONUS_COMPLETION_REASONS = ['spins_used', 'win_cap_reached', 'target_reached'] as const;

export const bonusCallCompletedData = z.strictObject({
  issueId: longId,
  reason: z.enum(BONUS_COMPLETION_REASONS),
  totalWinMinor: minorAmount,
  completedAt: isoInstant,
});

export const bonusCallExpiredData = z.strictObject({
  issueId: longId,
  spinsForfeited: spinCount,
  totalWinMinor: minorAmount,
  expiredAt: isoInstant,
});

export const bonusCallCanceledData = z.strictObject({
  issueId: longId,
  spinsForfeited: spinCount,
  totalWinMinor: minorAmount,
  canceledAt: isoInstant,
});

export const bonusRequestAcceptedData = z.strictObject({
  issueId: longId,
  requestHash: sha256Hex,
  playerId,
  acceptedAt: isoInstant,
});

export const BonusEventTypes = {
  BonusCallRegistered: 'BonusCallRegistered',
  FreeSpinStarted: 'FreeSpinStarted',
  FreeSpinSettled: 'FreeSpinSettled',
  RegularBonusSpinSettled: 'RegularBonusSpinSettled',
  BonusCallCompleted: 'BonusCallCompleted',
  BonusCallExpired: 'BonusCallExpired',
  BonusCallCanceled: 'BonusCallCanceled',
  BonusRequestAccepted: 'BonusRequestAccepted',
} as const;

export const bonusCallRegistered = eventOf(BonusEventTypes.BonusCallRegistered, bonusCallRegisteredData);
const freeSpinStarted = eventOf(BonusEventTypes.FreeSpinStarted, freeSpinStartedData);
export const freeSpinSettled = eventOf(BonusEventTypes.FreeSpinSettled, freeSpinSettledData);
const regularBonusSpinSettled = eventOf(BonusEventTypes.RegularBonusSpinSettled, regularBonusSpinSettledData);
const bonusCallCompleted = eventOf(BonusEventTypes.BonusCallCompleted, bonusCallCompletedData);
const bonusCallExpired = eventOf(BonusEventTypes.BonusCallExpired, bonusCallExpiredData);
const bonusCallCanceled = eventOf(BonusEventTypes.BonusCallCanceled, bonusCallCanceledData);

/** Events of a `playerBonus` stream. */
export const playerBonusEvent = z.discriminatedUnion('type', [
  bonusCallRegistered,
  freeSpinStarted,
  freeSpinSettled,
  regularBonusSpinSettled,
  bonusCallCompleted,
  bonusCallExpired,
  bonusCallCanceled,
]);

export type BonusCallRegistered = z.infer<typeof bonusCallRegistered>;
export type FreeSpinStarted = z.infer<typeof freeSpinStarted>;
export type FreeSpinSettled = z.infer<typeof freeSpinSettled>;
export type RegularBonusSpinSettled = z.infer<typeof regularBonusSpinSettled>;
export type BonusCallCompleted = z.infer<typeof bonusCallCompleted>;
export type BonusCallExpired = z.infer<typeof bonusCallExpired>;
export type BonusCallCanceled = z.infer<typeof bonusCallCanceled>;
export interface BonusRequestAccepted {
  type: 'BonusRequestAccepted';
  data: z.infer<typeof bonusRequestAcceptedData>;
}
export type PlayerBonusEvent = z.infer<typeof playerBonusEvent>;
/** Events of a `bonusRequest` stream. */
export type BonusRequestEvent = BonusRequestAccepted;
