/**
 * The `bonusRequest-{operatorId}-{platformId}` stream (docs/architecture.md "Data", D17): created once, it reserves a
 * platformId for one request body (its hash) and one issueId. A resend with the same body gets
 * that issueId again; another body is a conflict. The rule is `registrationGuardDecider`.
 */
import { registrationGuardDecider, type Reservation } from '@reelstream/bonus-domain';
import type { EventStore } from '@reelstream/platform-ports';
import { contextOf, type CommandOrigin } from './command-origin.js';
import { bonusRequestStreams } from './streams.js';

export type GuardRecord = Reservation;

/** Names a guard stream: the operator's platformId. */
export interface GuardKey {
  readonly operatorId: string;
  readonly platformId: string;
}

export async function readGuard(store: EventStore, key: GuardKey): Promise<GuardRecord | undefined> {
  const { state } = await bonusRequestStreams.load(store, key);
  return state ?? undefined;
}

/** Writes the reservation; false when another request reserved the platformId first. */
export async function reserveGuard(
  store: EventStore,
  key: GuardKey,
  record: GuardRecord,
  origin: CommandOrigin,
): Promise<boolean> {
  const handled = await bonusRequestStreams.handle(
    store,
    key,
    { type: 'ReserveRequest', data: record },
    contextOf(origin, record.acceptedAt),
    // Called when `readGuard` has just found none: the first attempt appends without reading again
    // (optimistic; a guard written meanwhile makes it a conflict, read and decided on).
    { loaded: { state: registrationGuardDecider.initialState, revision: undefined } },
  );
  return 'events' in handled;
}
