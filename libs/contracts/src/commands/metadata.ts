/**
 * What every command and query on the bus carries besides its data: who asked, when, and which
 * conversation it belongs to. Time and ids come in here, so the deciders never read a clock.
 */
import * as z from 'zod';
import { isoInstant, operatorId, traceparent } from '../shared/primitives.js';

/** Message ids (commandId, correlationId, causationId): UUIDs or other opaque tokens. */
export const messageId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/, {
  error: 'expected an id of 1–128 characters of A–Z, a–z, 0–9, _ . : -',
});

const commandMetadata = z.strictObject({
  commandId: messageId.meta({ description: 'Unique per command; a retried command keeps its id.' }),
  correlationId: messageId.meta({
    description: 'The request this command serves (the gateway request id, the round id, …).',
  }),
  causationId: messageId.optional().meta({ description: 'The message or event that caused this command.' }),
  operatorId,
  issuedAt: isoInstant,
  traceparent: traceparent.optional(),
});
export type CommandMetadata = z.infer<typeof commandMetadata>;

/**
 * `{type, version, data, metadata}` for one command or query type. `metadata.operatorId` must
 * name the same operator as `data.operatorId`: a message can never act on another tenant (D18).
 */
export function commandEnvelope<Type extends string, Data extends z.ZodType<{ operatorId: string }>>(
  type: Type,
  data: Data,
) {
  return z
    .strictObject({
      type: z.literal(type),
      version: z.literal(1),
      data,
      metadata: commandMetadata,
    })
    .superRefine((value, ctx) => {
      const message = value as { data?: { operatorId?: unknown }; metadata?: { operatorId?: unknown } };
      const dataOperator = message.data?.operatorId;
      if (
        message.metadata?.operatorId !== undefined &&
        dataOperator !== undefined &&
        dataOperator !== message.metadata.operatorId
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['metadata', 'operatorId'],
          message: 'metadata.operatorId must equal data.operatorId',
        });
      }
    });
}
