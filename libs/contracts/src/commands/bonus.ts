/**
 * The messages on `bonus.commands` (docs/architecture.md "Data"): CancelBonusCall, GetBonusCall and
 * ListBonusCalls, sent by the gateway, decided or answered by the bonus-ledger, which replies on
 * `bonus.replies`. Registration and free spins are decided in the caller's own process (ADR 0011,
 * ADR 0006) and expiry in the ledger's: no bus message carries them. `registerBonusCallData` is
 * the registration's data as the gateway parses it before it decides it in-process.
 */
import * as z from 'zod';
import { bonusTypeValue, BonusTypes, platformId, spinAmountValue } from '../api/bonus-call.js';
import {
  catalogId,
  currencyCode,
  isoInstant,
  longId,
  operatorId,
  playerId,
  positiveMinorAmount,
  sha256Hex,
} from '../shared/primitives.js';
import { bonusCallStatusName, bonusGameIds } from './bonus-record.js';
import { commandEnvelope } from './metadata.js';
import { playerKey } from '../topics.js';

export const registerBonusCallData = z
  .strictObject({
    operatorId,
    platformId,
    requestHash: sha256Hex.meta({
      description:
        'SHA-256 of the normalised request: same platformId with another hash is PLATFORM_ID_CONFLICT (D17).',
    }),
    playerId,
    providerId: catalogId,
    gameIds: bonusGameIds,
    bonusType: bonusTypeValue,
    currency: currencyCode,
    callAmountMinor: positiveMinorAmount,
    spinAmount: spinAmountValue.optional(),
    baseBetAmountMinor: positiveMinorAmount.optional(),
    expireAt: isoInstant,
  })
  .superRefine((data, ctx) => {
    if (data.bonusType === BonusTypes.freeSpin) {
      if (data.spinAmount === undefined)
        ctx.addIssue({ code: 'custom', path: ['spinAmount'], message: 'spinAmount is required for bonusType 1' });
      if (data.baseBetAmountMinor === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['baseBetAmountMinor'],
          message: 'baseBetAmountMinor is required for bonusType 1',
        });
      }
    }
  });

/** By issueId or by platformId, exactly one (D14). */
function byIssueOrPlatformId() {
  return z
    .strictObject({ operatorId, issueId: longId.optional(), platformId: platformId.optional() })
    .superRefine((data, ctx) => {
      if ((data.issueId === undefined) === (data.platformId === undefined)) {
        ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of issueId and platformId' });
      }
    });
}

const cancelBonusCallData = byIssueOrPlatformId();

const getBonusCallData = byIssueOrPlatformId();

export const MAX_LIST_LIMIT = 100;
export const DEFAULT_LIST_LIMIT = 50;

const listBonusCallsData = z.strictObject({
  operatorId,
  playerId: playerId.optional(),
  platformId: platformId.optional(),
  status: bonusCallStatusName.optional(),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT),
  cursor: z.string().min(1).max(256).optional(),
});

const cancelBonusCallCommand = commandEnvelope('CancelBonusCall', cancelBonusCallData);
const getBonusCallQuery = commandEnvelope('GetBonusCall', getBonusCallData);
const listBonusCallsQuery = commandEnvelope('ListBonusCalls', listBonusCallsData);

/** Everything a `bonus.commands` message may hold. */
export const bonusRequestMessage = z.discriminatedUnion('type', [
  cancelBonusCallCommand,
  getBonusCallQuery,
  listBonusCallsQuery,
]);

/** A registration's data as its schema normalised it, with the hash of that request (D17). */
export type RegisterBonusCallData = z.infer<typeof registerBonusCallData>;
export type CancelBonusCallCommand = z.infer<typeof cancelBonusCallCommand>;
export type GetBonusCallQuery = z.infer<typeof getBonusCallQuery>;
export type ListBonusCallsQuery = z.infer<typeof listBonusCallsQuery>;
export type BonusRequestMessage = z.infer<typeof bonusRequestMessage>;
export type BonusRequestType = BonusRequestMessage['type'];

/**
 * The partition key of a `bonus.commands` message. The topic is keyed by player (docs/architecture.md "Data"): a
 * list of one player's bonus calls is keyed by the player; a message that names no player (cancel or get by id) is
 * keyed by what it names, prefixed by the operator, so it still has a stable key.
 */
export function bonusCommandKey(message: BonusRequestMessage): string {
  const data: { operatorId: string; playerId?: string; issueId?: number; platformId?: string } = message.data;
  if (data.playerId !== undefined) return playerKey({ operatorId: data.operatorId, playerId: data.playerId });
  if (data.issueId !== undefined) return `${data.operatorId}:issue:${data.issueId}`;
  if (data.platformId !== undefined) return `${data.operatorId}:platform:${data.platformId}`;
  return data.operatorId;
}
