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
import { openPostgresEventStore } from '../src/index.js';
import { leaseStoresAt } from './support/lease-stores.js';

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

  describeLeaseContract(async () => {
    const { url, drop } = await server.schema('leases');
    return leaseStoresAt('postgres', url, drop);
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
