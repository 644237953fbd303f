/**
 * The `bonusRequest-{operatorId}-{platformId}` stream (docs/architecture.md "Data", D17): created once, it reserves a
 * platformId for one request body (its hash) and one issueId. A resend with the same body gets
 * that issueId again; another body is a conflict. The rule is `registrationGuardDecider`.
 */
import { registrationGuardDecider, type Reservation } from '@reelstream/bonus-domain';
import { bonusRequestEvent, parseStoredEvent, type BonusRequestAccepted } from '@reelstream/contracts';
import { handleCommand, loadState } from '@reelstream/platform-eventsourcing';
import type { EventStore, RecordedEvent } from '@reelstream/platform-ports';
import type { CommandOrigin } from './decide-and-append.js';

export type GuardRecord = Reservation;

const parseGuardEvent = (recorded: RecordedEvent): BonusRequestAccepted =>
  bonusRequestEvent.parse(parseStoredEvent(recorded));

export async function readGuard(store: EventStore, streamId: string): Promise<GuardRecord | undefined> {
  const { state } = await loadState(store, streamId, registrationGuardDecider, parseGuardEvent);
  return state ?? undefined;
}

/** Writes the reservation; false when another request reserved the platformId first. */
export async function reserveGuard(
  store: EventStore,
  streamId: string,
  record: GuardRecord,
  origin: CommandOrigin,
): Promise<boolean> {
  const handled = await handleCommand(
    store,
    streamId,
    registrationGuardDecider,
    { type: 'ReserveRequest', data: record },
    {
      context: { ...origin, occurredAt: record.acceptedAt },
      parse: parseGuardEvent,
      // Called when `readGuard` has just found none: the first attempt appends without reading again
      // (optimistic; a guard written meanwhile makes it a conflict, read and decided on).
      loaded: { state: registrationGuardDecider.initialState, revision: undefined },
    },
  );
  return 'events' in handled;
}
