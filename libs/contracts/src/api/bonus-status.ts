/**
 * Reading bonus calls: `GET /v1/bonus-call/{issueId}` and `GET /v1/bonus-call?…` (decisions.md D12,
 * D13). The API shows amounts as JSON numbers in currency units and times as ISO-8601 UTC.
 */
import { formatAmount } from '@reelstream/money';
import * as z from 'zod';
import { BONUS_CALL_STATUSES, bonusCallLifecycleShape, type BonusCallRecord } from '../commands/bonus-record.js';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from '../commands/bonus.js';
import { catalogId, currencyCode, longId, playerId } from '../shared/primitives.js';
import { bonusTypeValue, platformId, spinAmountValue } from './bonus-call.js';
import { okEnvelope } from './envelope.js';

const units = z.number().min(0);

const statusExample = {
  issueId: 171234567890123,
  platformId: 'promo-2026-05-0001',
  playerId: 'player_42',
  providerId: 7,
  gameIds: [1001, 1002],
  bonusType: 1,
  currency: 'EUR',
  callAmount: 50,
  spinAmount: 10,
  baseBetAmount: 0.2,
  spinsUsed: 3,
  spinsLeft: 7,
  totalWin: 1.6,
  winCapLeft: 48.4,
  status: 'active',
  expireAt: '2026-06-30T23:59:59.000Z',
  createdAt: '2026-05-01T09:30:00.000Z',
} as const;

export const bonusCallStatus = z
  .strictObject({
    issueId: longId,
    platformId,
    playerId,
    providerId: catalogId,
    gameIds: z.array(catalogId).min(1),
    bonusType: bonusTypeValue,
    currency: currencyCode,
    callAmount: units.meta({ description: 'Win cap (bonusType 1) or target win (bonusType 2), in currency units.' }),
    spinAmount: spinAmountValue.nullable().meta({ description: 'Free spins granted; null for bonusType 2.' }),
    baseBetAmount: units.nullable().meta({ description: 'Bet per free spin in currency units; null for bonusType 2.' }),
    spinsUsed: z.number().int().min(0),
    spinsLeft: z.number().int().min(0).nullable().meta({ description: 'Free spins left; null for bonusType 2.' }),
    totalWin: units.meta({ description: 'Won so far, in currency units.' }),
    winCapLeft: units.meta({ description: 'callAmount minus totalWin, in currency units.' }),
    ...bonusCallLifecycleShape,
  })
  .meta({
    id: 'BonusCallStatus',
    description: 'A bonus call and its progress.',
    examples: [statusExample],
  });
export type BonusCallStatus = z.infer<typeof bonusCallStatus>;

/** The API view of a read-model record: minor units become currency units of its currency. */
export function toBonusCallStatus(record: BonusCallRecord): BonusCallStatus {
  const money = (minor: number) => formatAmount(minor, record.currency);
  const status: BonusCallStatus = {
    issueId: record.issueId,
    platformId: record.platformId,
    playerId: record.playerId,
    providerId: record.providerId,
    gameIds: [...record.gameIds],
    bonusType: record.bonusType,
    currency: record.currency,
    callAmount: money(record.callAmountMinor),
    spinAmount: record.spinAmount,
    baseBetAmount: record.baseBetAmountMinor === null ? null : money(record.baseBetAmountMinor),
    spinsUsed: record.spinsUsed,
    spinsLeft: record.spinsLeft,
    totalWin: money(record.totalWinMinor),
    winCapLeft: money(record.winCapLeftMinor),
    status: record.status,
    expireAt: record.expireAt,
    createdAt: record.createdAt,
  };
  if (record.completedAt !== undefined) status.completedAt = record.completedAt;
  if (record.canceledAt !== undefined) status.canceledAt = record.canceledAt;
  if (record.expiredAt !== undefined) status.expiredAt = record.expiredAt;
  return status;
}

export const getBonusCallResponse = okEnvelope(bonusCallStatus).meta({
  id: 'GetBonusCallResponse',
  description:
    'GET /v1/bonus-call/{issueId}: one bonus call of the calling operator (another operator’s is a 404, as if it did not exist).',
  examples: [{ success: true, message: 'OK', data: statusExample }],
});

/** Opaque continuation token of a list: URL-safe, produced by the read model. */
const listCursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,256}$/, { error: 'cursor must be the nextCursor of a previous page' });

/**
 * Query of `GET /v1/bonus-call` (D13). Every filter is optional: with none, the operator's bonus
 * calls are listed newest first, page by page (`limit` bounds each page, so no filter is needed
 * to keep a request cheap). Unknown parameters are refused so a typo such as `?player=` does
 * not silently list everything.
 */
export const listBonusCallsQueryParams = z
  .strictObject({
    playerId: playerId.optional(),
    platformId: platformId.optional(),
    status: z
      .enum(BONUS_CALL_STATUSES, { error: `status must be one of ${BONUS_CALL_STATUSES.join(', ')}` })
      .optional(),
    limit: z
      .string()
      .regex(/^[0-9]{1,3}$/, { error: `limit must be an integer from 1 to ${MAX_LIST_LIMIT}` })
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(1, { error: `limit must be an integer from 1 to ${MAX_LIST_LIMIT}` })
          .max(MAX_LIST_LIMIT, { error: `limit must be an integer from 1 to ${MAX_LIST_LIMIT}` }),
      )
      .optional()
      .transform((limit) => limit ?? DEFAULT_LIST_LIMIT)
      .meta({ description: `Page size, 1–${MAX_LIST_LIMIT}, default ${DEFAULT_LIST_LIMIT}.` }),
    cursor: listCursor.optional(),
  })
  .meta({
    id: 'ListBonusCallsQuery',
    description: 'Query parameters of GET /v1/bonus-call; all optional.',
    examples: [
      { playerId: 'player_42', status: 'active' },
      { platformId: 'promo-2026-05-0001' },
      { limit: '20', cursor: 'MTcxMjM0NTY3ODkwMTIz' },
    ],
  });

export const listBonusCallsResponse = okEnvelope(
  z.object({
    items: z.array(bonusCallStatus),
    nextCursor: listCursor
      .nullable()
      .meta({ description: 'Pass as cursor to get the next page; null on the last page.' }),
  }),
).meta({
  id: 'ListBonusCallsResponse',
  description: 'A page of bonus calls, newest first.',
  examples: [{ success: true, message: 'OK', data: { items: [statusExample], nextCursor: null } }],
});
