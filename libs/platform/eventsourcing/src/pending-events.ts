import type { EventStore, Position, StreamFilter } from '@reelstream/platform-ports';

/** How many events the lag gauges count at most: past this a worker is "at least this far behind". */
export const PENDING_EVENTS_CAP = 5_000;

/**
 * Events stored after `checkpoint` (all of them when there is none) that pass `filter`: the work
 * a checkpointed catch-up worker (a relay, an outbox, a projection) has not yet made durable.
 * Counted up to `cap`, so a scrape of a worker far behind stays cheap.
 */
export async function pendingEvents(
  store: EventStore,
  checkpoint: Position | undefined,
  filter?: StreamFilter,
  cap = PENDING_EVENTS_CAP,
): Promise<number> {
  const events = await store.readAll({
    ...(checkpoint === undefined ? {} : { fromPosition: checkpoint }),
    ...(filter ? { filter } : {}),
    maxCount: cap,
  });
  return events.length;
}
