/**
 * The bonus call as the ledger's read model keeps it and answers queries with it: integer minor
 * units inside the system. The API shows it in currency units (`api/bonus-status.ts`).
 */
import * as z from 'zod';
import { bonusTypeValue, platformId, spinAmountValue } from '../api/bonus-call.js';
import {
  allDistinct,
  catalogId,
  currencyCode,
  isoInstant,
  longId,
  minorAmount,
  operatorPlayer,
  positiveMinorAmount,
} from '../shared/primitives.js';

/** decisions.md D12: the same four names everywhere. */
export const BONUS_CALL_STATUSES = ['active', 'completed', 'expired', 'canceled'] as const;
export const bonusCallStatusName = z
  .enum(BONUS_CALL_STATUSES)
  .meta({ description: 'active, completed, expired or canceled (decisions.md D12).' });
export type BonusCallStatusName = z.infer<typeof bonusCallStatusName>;

/** The games of a registration (D4): at least one, each once. */
export const bonusGameIds = z
  .array(catalogId)
  .min(1)
  .refine((ids) => allDistinct(ids), { error: 'gameIds must be distinct' });

/**
 * What a registration fixes about a bonus call, in minor units: the same fields, in the same
 * order, in the BonusCallRegistered event and in the read-model record.
 */
export const bonusCallTermsShape = {
  issueId: longId,
  platformId,
  ...operatorPlayer,
  providerId: catalogId,
  gameIds: z.array(catalogId).min(1),
  bonusType: bonusTypeValue,
  currency: currencyCode,
  callAmountMinor: positiveMinorAmount,
  /** null for bonusType 2, which has no spin count. */
  spinAmount: spinAmountValue.nullable(),
  baseBetAmountMinor: positiveMinorAmount.nullable(),
};

/** Where a bonus call stands and when it got there: the same in the read-model record and in the API's status (D12). */
export const bonusCallLifecycleShape = {
  status: bonusCallStatusName,
  expireAt: isoInstant,
  createdAt: isoInstant,
  completedAt: isoInstant.optional(),
  canceledAt: isoInstant.optional(),
  expiredAt: isoInstant.optional(),
};

export const bonusCallRecord = z.strictObject({
  ...bonusCallTermsShape,
  spinsUsed: z.number().int().min(0),
  spinsLeft: z.number().int().min(0).nullable(),
  totalWinMinor: minorAmount,
  winCapLeftMinor: minorAmount,
  /** A free spin started and not settled yet (the game-server resumes it after a restart). */
  openRoundId: longId.nullable(),
  ...bonusCallLifecycleShape,
});
export type BonusCallRecord = z.infer<typeof bonusCallRecord>;
