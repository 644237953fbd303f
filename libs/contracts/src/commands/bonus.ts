/**
 * Commands and queries on `bonus.commands` (docs/architecture.md "Data"): sent by the gateway and the game-server,
 * decided or answered by the bonus-ledger, which replies on `bonus.replies`.
 */
import * as z from 'zod';
import { bonusTypeValue, BonusTypes, platformId, spinAmountValue } from '../api/bonus-call.js';
import {
  catalogId,
  currencyCode,
  isoInstant,
  longId,
  minorAmount,
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

const startFreeSpinData = z.strictObject({
  operatorId,
  playerId,
  issueId: longId,
  gameId: catalogId,
  roundId: longId,
  currency: currencyCode.optional().meta({
    description:
      "The game session's currency: a bonus call of another currency is refused with BONUS_CURRENCY_MISMATCH (D6 amended). The game-server always sends it.",
  }),
});

const settleFreeSpinData = z.strictObject({
  operatorId,
  playerId,
  issueId: longId,
  roundId: longId,
  winMinor: minorAmount.meta({ description: 'The raw win of the round; the ledger caps it by the win cap left.' }),
});

const expireBonusCallData = z.strictObject({ operatorId, playerId, issueId: longId });

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

const getActiveBonusData = z.strictObject({ operatorId, playerId });

const registerBonusCallCommand = commandEnvelope('RegisterBonusCall', registerBonusCallData);
const cancelBonusCallCommand = commandEnvelope('CancelBonusCall', cancelBonusCallData);
const startFreeSpinCommand = commandEnvelope('StartFreeSpin', startFreeSpinData);
const settleFreeSpinCommand = commandEnvelope('SettleFreeSpin', settleFreeSpinData);
const expireBonusCallCommand = commandEnvelope('ExpireBonusCall', expireBonusCallData);
const getBonusCallQuery = commandEnvelope('GetBonusCall', getBonusCallData);
const listBonusCallsQuery = commandEnvelope('ListBonusCalls', listBonusCallsData);
const getActiveBonusQuery = commandEnvelope('GetActiveBonus', getActiveBonusData);

export const bonusCommand = z.discriminatedUnion('type', [
  registerBonusCallCommand,
  cancelBonusCallCommand,
  startFreeSpinCommand,
  settleFreeSpinCommand,
  expireBonusCallCommand,
]);
export const bonusQuery = z.discriminatedUnion('type', [getBonusCallQuery, listBonusCallsQuery, getActiveBonusQuery]);

/** Everything a `bonus.commands` message may hold. */
export const bonusRequestMessage = z.discriminatedUnion('type', [
  registerBonusCallCommand,
  cancelBonusCallCommand,
  startFreeSpinCommand,
  settleFreeSpinCommand,
  expireBonusCallCommand,
  getBonusCallQuery,
  listBonusCallsQuery,
  getActiveBonusQuery,
]);

export type RegisterBonusCallCommand = z.infer<typeof registerBonusCallCommand>;
export type CancelBonusCallCommand = z.infer<typeof cancelBonusCallCommand>;
export type StartFreeSpinCommand = z.infer<typeof startFreeSpinCommand>;
export type SettleFreeSpinCommand = z.infer<typeof settleFreeSpinCommand>;
export type ExpireBonusCallCommand = z.infer<typeof expireBonusCallCommand>;
export type GetBonusCallQuery = z.infer<typeof getBonusCallQuery>;
export type ListBonusCallsQuery = z.infer<typeof listBonusCallsQuery>;
export type GetActiveBonusQuery = z.infer<typeof getActiveBonusQuery>;
export type BonusRequestMessage = z.infer<typeof bonusRequestMessage>;
export type BonusRequestType = BonusRequestMessage['type'];

/**
 * The partition key of a `bonus.commands` message. The topic is keyed by player (docs/architecture.md "Data") so a
 * player's commands keep their order; a message that names no player (cancel or get by id) is
 * keyed by what it names, prefixed by the operator, so it still has a stable key.
 */
export function bonusCommandKey(message: BonusRequestMessage): string {
  const data: { operatorId: string; playerId?: string; issueId?: number; platformId?: string } = message.data;
  if (data.playerId !== undefined) return playerKey({ operatorId: data.operatorId, playerId: data.playerId });
  if (data.issueId !== undefined) return `${data.operatorId}:issue:${data.issueId}`;
  if (data.platformId !== undefined) return `${data.operatorId}:platform:${data.platformId}`;
  return data.operatorId;
}
