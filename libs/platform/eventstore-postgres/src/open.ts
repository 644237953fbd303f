import type { CheckpointStore, LeasesAndFencedCheckpoints } from '@reelstream/platform-ports';
import { PostgresCheckpointStore } from './checkpoints.js';
import { PostgresLeaseStore } from './leases.js';
import { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store.js';

export interface OpenedPostgresEventStore {
  store: PostgresEventStore;
  checkpoints: CheckpointStore;
  leases: LeasesAndFencedCheckpoints;
}

/** The store, its checkpoints and its leases on one pool of connections to the database of `url`. */
export async function openPostgresEventStore(
  url: string,
  options: PostgresEventStoreOptions = {},
): Promise<OpenedPostgresEventStore> {
  const store = await PostgresEventStore.open(url, options);
  return {
    store,
    checkpoints: new PostgresCheckpointStore(store.pool, store.tables, store.url.address),
    leases: new PostgresLeaseStore(store.pool, store.tables, store.url.address),
  };
}
