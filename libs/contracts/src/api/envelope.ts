/**
 * The response envelope of API v1 (spec §2.4) and its error form (decisions.md D16): every answer of
 * the gateway, successful or not, has the same top-level shape.
 */
import * as z from 'zod';
import { defaultMessageOf, type ErrorCode, type ErrorDetail } from '@reelstream/errors';
import { errorCode, errorDetail } from './errors.js';

/** `{success: true, message, data}` around `data`. */
export function okEnvelope<Data extends z.ZodType>(data: Data) {
  return z.object({
    success: z.literal(true),
    message: z.string().meta({ description: 'Short result text, `OK` on success.' }),
    data,
  });
}

/** `okEnvelope` around one page of a list: its items, and the cursor of the next page. */
export function okPage<Item extends z.ZodType>(item: Item) {
  return okEnvelope(
    z.object({
      items: z.array(item),
      nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null at the end.' }),
    }),
  );
}

const errorBody = z
  .object({
    code: errorCode,
    details: z.array(errorDetail).optional(),
  })
  .meta({
    id: 'ErrorBody',
    description: 'What went wrong: a stable code and, for invalid requests, one entry per problem.',
  });

export const errorEnvelope = z
  .object({
    success: z.literal(false),
    message: z.string().meta({ description: 'Human-readable summary of the error.' }),
    data: z.null(),
    error: errorBody,
  })
  .meta({
    id: 'ErrorEnvelope',
    description: 'Every failed API call answers with this shape; never a stack trace.',
    examples: [
      {
        success: false,
        message: 'The request is not valid.',
        data: null,
        error: {
          code: 'VALIDATION_FAILED',
          details: [{ path: 'metaData.spinAmount', message: 'Too big: expected number to be <=100' }],
        },
      },
      {
        success: false,
        message: 'The player already has an active bonus call; only one may run at a time.',
        data: null,
        error: { code: 'ACTIVE_BONUS_EXISTS' },
      },
    ],
  });

export type OkEnvelope<Data> = { success: true; message: string; data: Data };
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export function ok<Data>(data: Data, message = 'OK'): OkEnvelope<Data> {
  return { success: true, message, data };
}

export function failure(
  code: ErrorCode,
  message: string = defaultMessageOf(code),
  details?: ErrorDetail[],
): ErrorEnvelope {
  return { success: false, message, data: null, error: details === undefined ? { code } : { code, details } };
}
