/**
 * The EventStore contract, its cluster cases and the lease contract against a real PostgreSQL:
 * `PG_URL` (.ci/run sets it), else the machine's server at 127.0.0.1:5432 when one answers. Each
 * suite works in a schema of its own, dropped at the end. Without a server, a notice says what
 * did not run.
 */
import {
  describeEventStoreClusterContract,
  describeEventStoreContract,
  describeLeaseContract,
  postgresForTests,
  postgresNotice,
} from '@reelstream/testing';
import { openPostgresEventStore, type PostgresEventStore } from '../src/index.js';

const server = await postgresForTests();

if (server) {
  describeEventStoreContract(async () => {
    const { url, drop } = await server.schema('contract');
    return { adapter: 'postgres', url, open: () => openPostgresEventStore(url), dispose: drop };
  }, 'postgres');

  describeEventStoreClusterContract(async () => {
    const { url, drop } = await server.schema('cluster');
    return { adapter: 'postgres', url, open: () => openPostgresEventStore(url), dispose: drop };
  }, 'postgres');

  const opened: PostgresEventStore[] = [];
  describeLeaseContract(async () => {
    const { url, drop } = await server.schema('leases');
    return {
      adapter: 'postgres',
      open: async () => {
        // One pool per replica, as two processes have.
        const { store, leases } = await openPostgresEventStore(url);
        opened.push(store);
        return leases;
      },
      position: (n) => `${n}:${n}`,
      dispose: async () => {
        await Promise.all(opened.map((store) => store.close()));
        await drop();
      },
    };
  }, 'postgres');
} else {
  process.stdout.write(
    postgresNotice('EventStore contract suite') +
      postgresNotice(
        'EventStore CLUSTER contract (filtered resume past 10k foreign events, backwards readAll over 50k)',
      ) +
      postgresNotice('Lease contract suite'),
  );
}
