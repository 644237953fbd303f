/**
 * The bonus call as the ledger's read model keeps it and answers queries with it: integer minor
 * units inside the system. The API shows it in currency units (`api/bonus-status.ts`).
 */
import * as z from 'zod';
import { platformId } from '../api/bonus-call.js';
import { bonusTypeValue } from '../api/bonus-call.js';
import { catalogId, currencyCode, isoInstant, longId, minorAmount, operatorId, playerId, positiveMinorAmount } from '../shared/primitives.js';

/** DESIGN D12: the same four names everywhere. */
export const BONUS_CALL_STATUSES = ['active', 'completed', 'expired', 'canceled'] as const;
export const bonusCallStatusName = z.enum(BONUS_CALL_STATUSES).meta({ description: 'active, completed, expired or canceled (DESIGN D12).' });
export type BonusCallStatusName = z.infer<typeof bonusCallStatusName>;

export const bonusCallRecord = z.strictObject({
  issueId: longId,
  platformId,
  operatorId,
  playerId,
  providerId: catalogId,
  gameIds: z.array(catalogId).min(1),
  bonusType: bonusTypeValue,
  currency: currencyCode,
  callAmountMinor: positiveMinorAmount,
  /** null for bonusType 2, which has no spin count. */
  spinAmount: z.number().int().min(1).max(100).nullable(),
  baseBetAmountMinor: positiveMinorAmount.nullable(),
  spinsUsed: z.number().int().min(0),
  spinsLeft: z.number().int().min(0).nullable(),
  totalWinMinor: minorAmount,
  winCapLeftMinor: minorAmount,
  /** A free spin started and not settled yet (the game-server resumes it after a restart). */
  openRoundId: longId.nullable(),
  status: bonusCallStatusName,
  expireAt: isoInstant,
  createdAt: isoInstant,
  completedAt: isoInstant.optional(),
  canceledAt: isoInstant.optional(),
  expiredAt: isoInstant.optional(),
});
export type BonusCallRecord = z.infer<typeof bonusCallRecord>;
