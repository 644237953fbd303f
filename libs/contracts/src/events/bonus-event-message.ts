/**
 * A message on `bonus.events` (docs/architecture.md "Data"): one event of a `playerBonus` stream, relayed by the
 * bonus-ledger from the store with a checkpoint. Delivery is at least once: consumers drop a
 * message whose `eventId` they have seen (or whose `revision` of `streamId` they have passed).
 */
import * as z from 'zod';
import { messageId } from '../commands/metadata.js';
import { isoInstant, operatorPlayer } from '../shared/primitives.js';
import { playerBonusEvent } from './bonus.js';

export const bonusEventMessage = z.strictObject({
  /** The stored event's id (a UUID): the de-duplication key. */
  eventId: z.uuid(),
  streamId: z.string().min(1),
  /** Revision of the event in its stream, from 0. */
  revision: z.number().int().min(0),
  ...operatorPlayer,
  occurredAt: isoInstant,
  correlationId: messageId,
  causationId: messageId,
  /** `{type, data}` as in the stream, upcast to the current schema version. */
  event: playerBonusEvent,
});
export type BonusEventMessage = z.infer<typeof bonusEventMessage>;
