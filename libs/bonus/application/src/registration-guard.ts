/**
 * The `bonusRequest-{operatorId}-{platformId}` stream (DESIGN §4, D17): created once with
 * expected revision "no stream", it reserves a platformId for one request body (its hash) and
 * one issueId. A resend with the same body gets that issueId again; another body is a conflict.
 */
import { bonusRequestEvent, eventToAppend, parseStoredEvent, type BonusRequestAccepted } from '@reelstream/contracts';
import { isWrongExpectedRevision, type EventStore } from '@reelstream/ports';
import type { CommandOrigin } from './decide-and-append.js';
import { deterministicEventId } from './event-ids.js';

export type GuardRecord = BonusRequestAccepted['data'];

export async function readGuard(store: EventStore, streamId: string): Promise<GuardRecord | undefined> {
  const [first] = await store.readStream(streamId, { maxCount: 1 });
  if (!first) return undefined;
  return bonusRequestEvent.parse(parseStoredEvent(first)).data;
}

/** Writes the reservation; false when another request created the stream first. */
export async function reserveGuard(
  store: EventStore,
  streamId: string,
  record: GuardRecord,
  origin: CommandOrigin,
): Promise<boolean> {
  const event: BonusRequestAccepted = { type: 'BonusRequestAccepted', data: record };
  const context = {
    correlationId: origin.correlationId,
    causationId: origin.commandId,
    operatorId: origin.operatorId,
    occurredAt: record.acceptedAt,
  };
  try {
    await store.append(
      streamId,
      [
        {
          eventId: deterministicEventId(origin.commandId, streamId, 'no_stream', 0, event),
          ...eventToAppend(event, context),
        },
      ],
      {
        expectedRevision: 'no_stream',
      },
    );
    return true;
  } catch (error) {
    if (isWrongExpectedRevision(error)) return false;
    throw error;
  }
}
