import { BACKWARDS, END, EventStoreDBClient } from '@eventstore/db-client';
import type { CheckpointStore, EventStore, LeasesAndFencedCheckpoints } from '@reelstream/platform-ports';
import { EsdbCheckpointStore } from './checkpoints.js';
import { redact, validateConnectionString } from './connection-string.js';
import { withCredentials } from './credentials.js';
import { EsdbEventStore } from './esdb-event-store.js';
import { EsdbLeaseStore } from './leases.js';
import { refusedServerVersion, serverVersionOf } from './server-version.js';

export interface OpenedEsdbEventStore {
  store: EventStore;
  checkpoints: CheckpointStore;
  /** Leases and the checkpoints written under them (`lease-{name}` streams). */
  leases: LeasesAndFencedCheckpoints;
}

/**
 * Connects to EventStoreDB (`esdb://host:2113?tls=false`) and proves the connection with one read of
 * the head of `$all`, so a wrong address fails at start-up rather than at the first command; a server
 * older than the adapter's floor (server-version.ts) is refused then too. The credentials and CA of
 * the environment (credentials.ts) join the connection string first.
 */
export async function openEsdbEventStore(
  connectionString: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OpenedEsdbEventStore> {
  const client = EventStoreDBClient.connectionString(validateConnectionString(withCredentials(connectionString, env)));
  let refused: string | undefined;
  try {
    for await (const _ of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) break;
    refused = refusedServerVersion(await serverVersionOf(client));
  } catch (error) {
    await client.dispose();
    throw new Error(
      `cannot reach EventStoreDB at ${redact(connectionString)}: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  if (refused) {
    await client.dispose();
    throw new Error(`EventStoreDB at ${redact(connectionString)} is refused: ${refused}`);
  }
  const checkpoints = new EsdbCheckpointStore(client);
  return { store: new EsdbEventStore(client), checkpoints, leases: new EsdbLeaseStore(client, checkpoints) };
}
