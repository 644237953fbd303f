import type { LeaseStoreUnderTest } from '@reelstream/testing';
import { openPostgresEventStore, type PostgresEventStore } from '../../src/index.js';

/**
 * The lease contract's back end on the schema of `url`: each `open` is a store of its own (one pool
 * per replica, as two processes have); `dispose` closes them and drops the schema.
 */
export function leaseStoresAt(adapter: string, url: string, drop: () => Promise<void>): LeaseStoreUnderTest {
  const opened: PostgresEventStore[] = [];
  return {
    adapter,
    open: async () => {
      const { store, leases } = await openPostgresEventStore(url);
      opened.push(store);
      return leases;
    },
    position: (n) => `${n}:${n}`,
    dispose: async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
      await drop();
    },
  };
}
