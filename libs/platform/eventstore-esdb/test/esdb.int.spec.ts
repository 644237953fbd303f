/**
 * The EventStore and lease contracts against a real EventStoreDB, when `EVENTSTORE_URL` names one
 * (`npm run test:infra` starts it from docker/compose.yml); the mapping of every lease operation to
 * the next `lease-{name}` state is unit-tested in lease-state.unit.spec.ts. The tests below them need
 * no server and always run.
 */
import { describe, expect, it } from '@jest/globals';
import type { EventStore } from '@reelstream/platform-ports';
import {
  describeEventStoreClusterContract,
  describeEventStoreContract,
  describeLeaseContract,
  freePort,
} from '@reelstream/testing';
import { InvalidConnectionStringError, openEsdbEventStore } from '../src/index.js';
import { encodePosition } from '../src/position.js';

const url = process.env['EVENTSTORE_URL'];

if (url) {
  describeEventStoreContract(
    async () => ({
      adapter: 'esdb',
      url,
      open: () => openEsdbEventStore(url),
      // The server belongs to docker compose and outlives the suite; the cases use fresh stream names.
      dispose: async () => undefined,
    }),
    'esdb',
  );
  describeEventStoreClusterContract(
    async () => ({ adapter: 'esdb', url, open: () => openEsdbEventStore(url), dispose: async () => undefined }),
    'esdb',
  );
  const leaseStores: EventStore[] = [];
  describeLeaseContract(
    async () => ({
      adapter: 'esdb',
      open: async () => {
        const { store, leases } = await openEsdbEventStore(url);
        leaseStores.push(store);
        return leases;
      },
      position: (n) => encodePosition({ commit: BigInt(n), prepare: BigInt(n) }),
      dispose: async () => {
        await Promise.all(leaseStores.map((store) => store.close()));
      },
    }),
    'esdb',
  );
} else {
  process.stdout.write(
    '[contract] EventStore contract suite NOT run against EventStoreDB: EVENTSTORE_URL is not set (it ran against the embedded SQLite adapter).\n' +
      '[contract] EventStore CLUSTER contract (filtered resume past 10k foreign events, backwards readAll over 50k foreign events) ' +
      'NOT run: EVENTSTORE_URL is not set. No EventStoreDB ran here.\n' +
      '[contract] Lease contract suite NOT run against EventStoreDB: EVENTSTORE_URL is not set (it ran against the embedded SQLite adapter and the in-memory stand-in).\n',
  );
}

describe('openEsdbEventStore', () => {
  it('refuses a connection string that is not esdb:// before connecting', async () => {
    await expect(openEsdbEventStore('sqlite:./data/reelstream.db')).rejects.toThrow(InvalidConnectionStringError);
  });

  it('fails at start-up, naming the address, when nothing listens there', async () => {
    const port = await freePort();
    await expect(openEsdbEventStore(`esdb://127.0.0.1:${port}?tls=false`)).rejects.toThrow(
      `cannot reach EventStoreDB at esdb://127.0.0.1:${port}?tls=false`,
    );
  });
});
