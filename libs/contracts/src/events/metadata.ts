/**
 * The envelope of every stored event (docs/architecture.md "Data"): `{type, data, metadata}`, with metadata
 * {correlationId, causationId, operatorId, occurredAt, schemaVersion, traceparent}.
 */
import * as z from 'zod';
import { messageId } from '../commands/metadata.js';
import { isoInstant, operatorId, traceparent, tracestate } from '../shared/primitives.js';

export const eventMetadata = z.object({
  correlationId: messageId,
  /** The command (or event) that caused this event. */
  causationId: messageId,
  operatorId,
  occurredAt: isoInstant,
  /** Version of `data`'s schema for this event type; older versions are upcast on read. */
  schemaVersion: z.number().int().min(0),
  traceparent: traceparent.optional(),
  tracestate: tracestate.optional(),
});
export type EventMetadata = z.infer<typeof eventMetadata>;

/** What a writer supplies; `schemaVersion` is filled in with the current version of the type. */
export type EventContext = Omit<EventMetadata, 'schemaVersion'>;

export function eventOf<Type extends string, Data extends z.ZodType>(type: Type, data: Data) {
  return z.strictObject({ type: z.literal(type), data });
}
