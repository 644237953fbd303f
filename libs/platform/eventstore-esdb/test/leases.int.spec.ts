/**
 * The lease contract against a real EventStoreDB when `EVENTSTORE_URL` names one; the mapping
 * of every lease operation to the next `lease-{name}` state is unit-tested in lease-state.unit.spec.ts.
 */
import { it } from '@jest/globals';
import type { EventStore } from '@reelstream/ports';
import { describeLeaseContract } from '@reelstream/testing';
import { openEsdbEventStore } from '../src/index.js';
import { encodePosition } from '../src/position.js';

const url = process.env['EVENTSTORE_URL'];

if (url) {
  const opened: EventStore[] = [];
  describeLeaseContract(
    async () => ({
      adapter: 'esdb',
      open: async () => {
        const { store, leases } = await openEsdbEventStore(url);
        opened.push(store);
        return leases;
      },
      position: (n) => encodePosition({ commit: BigInt(n), prepare: BigInt(n) }),
      dispose: async () => {
        await Promise.all(opened.map((store) => store.close()));
      },
    }),
    'esdb',
  );
} else {
  process.stdout.write(
    '[contract] Lease contract suite NOT run against EventStoreDB: EVENTSTORE_URL is not set (it ran against the embedded SQLite adapter). No EventStoreDB ran here.\n',
  );
  it.skip('Lease contract against EventStoreDB (needs EVENTSTORE_URL)', () => undefined);
}
