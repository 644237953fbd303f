/**
 * Replies on `bonus.replies`: `{ok: true, result}` or `{ok: false, error}` with a code from the
 * error catalogue. Each request type of `bonus.commands` has its own result schema, so a requester
 * parses the reply with the schema of what it asked.
 */
import * as z from 'zod';
import type { ErrorCode, ErrorDetail } from '@reelstream/errors';
import { errorCode, errorDetail } from '../api/errors.js';
import { longId } from '../shared/primitives.js';
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

const cancelBonusCallResult = z.strictObject({
  issueId: longId,
  /** true when the bonus call was already canceled: cancel again answers success (D14). */
  alreadyCanceled: z.boolean(),
});

const getBonusCallResult = bonusCallRecord;

const listBonusCallsResult = z.strictObject({
  items: z.array(bonusCallRecord),
  nextCursor: z.string().min(1).nullable(),
});

const bonusResultSchemas = {
  CancelBonusCall: cancelBonusCallResult,
  GetBonusCall: getBonusCallResult,
  ListBonusCalls: listBonusCallsResult,
} as const satisfies { [Type in BonusRequestType]: z.ZodType };

export type BonusResult<Type extends BonusRequestType> = z.infer<(typeof bonusResultSchemas)[Type]>;
export type BonusReply<Type extends BonusRequestType> =
  { ok: true; result: BonusResult<Type> } | { ok: false; error: ReplyError };

/** Parses a `bonus.replies` value as the answer to a request of `type`; throws a ZodError when it is not one. */
export function parseBonusReply<Type extends BonusRequestType>(type: Type, value: unknown): BonusReply<Type> {
  return bonusReply(bonusResultSchemas[type]).parse(value) as BonusReply<Type>;
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
