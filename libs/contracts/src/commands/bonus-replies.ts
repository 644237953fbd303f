/**
 * Replies on `bonus.replies`: `{ok: true, result}` or `{ok: false, error}` with a code from the
 * error catalogue. Each request type has its own result schema, so a requester parses the reply
 * with the schema of what it asked.
 */
import * as z from 'zod';
import { errorCode, errorDetail, type ErrorCode, type ErrorDetail } from '../api/errors.js';
import { catalogId, currencyCode, longId, minorAmount, positiveMinorAmount } from '../shared/primitives.js';
import { bonusCallRecord } from './bonus-record.js';
import type { BonusRequestType } from './bonus.js';

const replyError = z.strictObject({
  code: errorCode,
  message: z.string(),
  details: z.array(errorDetail).optional(),
});
export type ReplyError = z.infer<typeof replyError>;

function bonusReply<Result extends z.ZodType>(result: Result) {
  return z.discriminatedUnion('ok', [
    z.strictObject({ ok: z.literal(true), result }),
    z.strictObject({ ok: z.literal(false), error: replyError }),
  ]);
}

const registerBonusCallResult = z.strictObject({
  issueId: longId,
  /** true when the same platformId and request hash were registered before (D17). */
  replayed: z.boolean(),
});

const cancelBonusCallResult = z.strictObject({
  issueId: longId,
  /** true when the bonus call was already canceled: cancel again answers success (D14). */
  alreadyCanceled: z.boolean(),
});

const startFreeSpinResult = z.strictObject({
  issueId: longId,
  roundId: longId,
  gameId: catalogId,
  spinNumber: z.number().int().min(1).max(100),
  currency: currencyCode,
  baseBetAmountMinor: positiveMinorAmount,
  winCapLeftMinor: minorAmount,
  /** true when this round had already been started (a retried StartFreeSpin). */
  replayed: z.boolean(),
});

const settleFreeSpinResult = z.strictObject({
  issueId: longId,
  roundId: longId,
  spinNumber: z.number().int().min(1).max(100),
  /** The win credited: the raw win capped by the win cap left. */
  winMinor: minorAmount,
  totalWinMinor: minorAmount,
  spinsLeft: z.number().int().min(0),
  /** The transactionId of the spin's `win` (fixed in FreeSpinSettled): the game-server shows the win pending until it is answered. */
  transactionId: longId,
  /** true when this spin completed the bonus call (spins used or cap reached, D20). */
  completed: z.boolean(),
  replayed: z.boolean(),
});

const expireBonusCallResult = z.strictObject({
  issueId: longId,
  /** false when the bonus call was no longer active: nothing to expire. */
  expired: z.boolean(),
});

const getBonusCallResult = bonusCallRecord;

const listBonusCallsResult = z.strictObject({
  items: z.array(bonusCallRecord),
  nextCursor: z.string().min(1).nullable(),
});

const getActiveBonusResult = z.strictObject({ bonus: bonusCallRecord.nullable() });

export const BonusResultSchemas = {
  RegisterBonusCall: registerBonusCallResult,
  CancelBonusCall: cancelBonusCallResult,
  StartFreeSpin: startFreeSpinResult,
  SettleFreeSpin: settleFreeSpinResult,
  ExpireBonusCall: expireBonusCallResult,
  GetBonusCall: getBonusCallResult,
  ListBonusCalls: listBonusCallsResult,
  GetActiveBonus: getActiveBonusResult,
} as const satisfies { [Type in BonusRequestType]: z.ZodType };

export type BonusResult<Type extends BonusRequestType> = z.infer<(typeof BonusResultSchemas)[Type]>;
export type BonusReply<Type extends BonusRequestType> =
  { ok: true; result: BonusResult<Type> } | { ok: false; error: ReplyError };

/** Parses a `bonus.replies` value as the answer to a request of `type`; throws a ZodError when it is not one. */
export function parseBonusReply<Type extends BonusRequestType>(type: Type, value: unknown): BonusReply<Type> {
  return bonusReply(BonusResultSchemas[type]).parse(value) as BonusReply<Type>;
}

export function okReply<Result>(result: Result): { ok: true; result: Result } {
  return { ok: true, result };
}

export function errorReply(
  code: ErrorCode,
  message: string,
  details?: ErrorDetail[],
): { ok: false; error: ReplyError } {
  return { ok: false, error: details === undefined ? { code, message } : { code, message, details } };
}
