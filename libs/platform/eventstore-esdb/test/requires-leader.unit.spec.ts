/**
 * Reads that decide go to the leader: a follower may lag it, and a command decided on its stale
 * state, or a lease or checkpoint compare-and-set read from it, would be decided on the past. The
 * client turns `requiresLeader` into the `requires-leader` header; what is checked here is that the
 * adapter asks for it on each such read (a recording stand-in for the client: no server runs here).
 */
import { describe, expect, it } from '@jest/globals';
import type { EventStoreDBClient } from '@eventstore/db-client';
import { EsdbCheckpointStore } from '../src/checkpoints.js';
import { EsdbEventStore } from '../src/esdb-event-store.js';
import { EsdbLeaseStore } from '../src/leases.js';

function recordingClient(reads: { stream: string; requiresLeader: unknown }[]): EventStoreDBClient {
  return {
    // eslint-disable-next-line require-yield -- every stream reads as empty
    async *readStream(stream: string, options: { requiresLeader?: unknown }) {
      reads.push({ stream, requiresLeader: options.requiresLeader });
    },
  } as unknown as EventStoreDBClient;
}

describe('EventStoreDB reads that decide', () => {
  it('ask the leader for stream reads, stream revisions, lease state and checkpoints', async () => {
    const reads: { stream: string; requiresLeader: unknown }[] = [];
    const client = recordingClient(reads);
    const store = new EsdbEventStore(client);
    await store.readStream('playerBonus-op1-p1');
    await store.streamRevision('playerBonus-op1-p1');
    await new EsdbLeaseStore(client, new EsdbCheckpointStore(client)).load('bonus-ledger.relay');
    await new EsdbCheckpointStore(client).load('projection');
    expect(reads.length).toBeGreaterThanOrEqual(4);
    expect(reads.every((read) => read.requiresLeader === true)).toBe(true);
  });
});
