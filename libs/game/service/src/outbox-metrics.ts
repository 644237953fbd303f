/** The round outbox's lag: round events after its checkpoint, i.e. wins not yet known to be published. */
import { streamPrefix } from '@reelstream/contracts';
import { pendingEvents, PENDING_EVENTS_CAP, slowestShardCheckpoint } from '@reelstream/platform-eventsourcing';
import { ROUND_OUTBOX_CHECKPOINT } from '@reelstream/game-application';
import type { CheckpointStore, EventStore } from '@reelstream/platform-ports';
import { createMetrics, MetricNames } from '@reelstream/platform-telemetry';

/**
 * Registers `reelstream_worker_lag{worker="round-outbox"}`; returns what unregisters it. The
 * outbox holds its checkpoint before the earliest open round, so a round in play counts too.
 */
export function observeRoundOutbox(
  store: EventStore,
  checkpoints: Pick<CheckpointStore, 'load'>,
  shards: number,
): () => void {
  const filter = { streamPrefixes: [streamPrefix('round')] };
  return createMetrics().observableGauge<'worker'>(
    MetricNames.workerLag,
    {
      description: `events not yet sent by a relay/outbox or applied by a projection (counted up to ${PENDING_EVENTS_CAP})`,
    },
    async () => [
      {
        value: await pendingEvents(
          store,
          await slowestShardCheckpoint(ROUND_OUTBOX_CHECKPOINT, shards, checkpoints, store),
          filter,
        ),
        attributes: { worker: 'round-outbox' },
      },
    ],
  );
}
