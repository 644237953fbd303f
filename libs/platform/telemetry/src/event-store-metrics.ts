import type { EventStore } from '@reelstream/platform-ports';
import { MetricNames, SECONDS_BUCKETS } from './metric-names.js';
import { createMetrics, type Metrics } from './metrics.js';

/**
 * Wraps an EventStore so every append records its duration (seconds) in
 * `reelstream_eventstore_append_duration_seconds`, with `outcome` ok or error (a conflict is an
 * error too: it is a round trip that wrote nothing). Everything else passes through.
 */
export function measureEventStore(store: EventStore, metrics: Metrics = createMetrics()): EventStore {
  const appends = metrics.histogram<'outcome'>(MetricNames.eventStoreAppendDuration, {
    description: 'event-store append duration',
    unit: 's',
    boundaries: SECONDS_BUCKETS,
  });
  return withAppend(store, async (streamId, events, options) => {
    const started = performance.now();
    let outcome = 'error';
    try {
      const result = await store.append(streamId, events, options);
      outcome = 'ok';
      return result;
    } finally {
      appends.record((performance.now() - started) / 1_000, { outcome });
    }
  });
}

/** `store` with `append` replaced: every read and subscription passes through unchanged. */
function withAppend(store: EventStore, append: EventStore['append']): EventStore {
  return {
    append,
    readStream: (streamId, options) => store.readStream(streamId, options),
    streamRevision: (streamId) => store.streamRevision(streamId),
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) => store.subscribeToAll(options),
    comparePositions: (a, b) => store.comparePositions(a, b),
    close: () => store.close(),
  };
}
