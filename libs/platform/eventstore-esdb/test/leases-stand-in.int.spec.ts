/**
 * EsdbLeaseStore's compare-and-set logic through the shared lease contract, with EventStoreDB's
 * stream semantics played by an in-memory stand-in: the three client calls the store makes
 * (`readStream` backwards from the end, `appendToStream` with an expected revision,
 * `setStreamMetadata`), answering with the client's own error classes. No EventStoreDB server can
 * run here; the same contract runs against a real one in esdb.int.spec.ts when EVENTSTORE_URL is set.
 */
import { describe, expect, it } from '@jest/globals';
import {
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import { describeLeaseContract } from '@reelstream/testing';
import { EsdbCheckpointStore } from '../src/checkpoints.js';
import { EsdbLeaseStore } from '../src/leases.js';
import { encodePosition } from '../src/position.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Streams of events, each appended only at the revision its writer expected. */
class StreamsStandIn {
  readonly streams = new Map<string, { type: string; data: unknown }[]>();

  readStream(
    streamId: string,
  ): AsyncIterable<{ event: { streamId: string; type: string; data: unknown; revision: bigint } }> {
    const streams = this.streams;
    return (async function* () {
      await turn();
      const events = streams.get(streamId);
      if (!events) throw new StreamNotFoundError(undefined, streamId);
      const last = events.length - 1;
      const event = events[last];
      if (event) yield { event: { streamId, ...event, revision: BigInt(last) } };
    })();
  }

  async appendToStream(
    streamId: string,
    event: { type: string; data: unknown },
    options: { expectedRevision: bigint | typeof NO_STREAM },
  ): Promise<{ nextExpectedRevision: bigint }> {
    await turn();
    const events = this.streams.get(streamId) ?? [];
    const current = events.length === 0 ? NO_STREAM : BigInt(events.length - 1);
    if (options.expectedRevision !== current)
      throw new WrongExpectedVersionError(undefined, {
        streamName: streamId,
        expected: options.expectedRevision,
        current: current === NO_STREAM ? 'no_stream' : current,
      });
    events.push({ type: event.type, data: event.data });
    this.streams.set(streamId, events);
    return { nextExpectedRevision: BigInt(events.length - 1) };
  }

  async setStreamMetadata(): Promise<void> {
    await turn();
  }

  get client(): EventStoreDBClient {
    return this as unknown as EventStoreDBClient;
  }
}

const position = (n: number) => encodePosition({ commit: BigInt(n), prepare: BigInt(n) });

describeLeaseContract(async () => {
  const server = new StreamsStandIn();
  return {
    adapter: 'esdb stand-in',
    open: async () => new EsdbLeaseStore(server.client, new EsdbCheckpointStore(server.client)),
    position,
    dispose: async () => undefined,
  };
}, 'esdb stand-in');

describe('EsdbLeaseStore', () => {
  it('reads the checkpoint the worker kept before leases existed until the lease stream holds one', async () => {
    const server = new StreamsStandIn();
    const unfenced = new EsdbCheckpointStore(server.client);
    await unfenced.store('bonus-ledger.relay', position(40));
    const leases = new EsdbLeaseStore(server.client, unfenced);
    const lease = await leases.acquire('bonus-ledger.relay', 'ledger-0', 5_000);
    if (!lease) throw new Error('expected a grant');
    expect(await leases.load('bonus-ledger.relay')).toBe(position(40));
    await leases.store('bonus-ledger.relay', position(41), lease.token);
    expect(await leases.load('bonus-ledger.relay')).toBe(position(41));
    // Lease and checkpoint are one stream of whole states: the last one says everything.
    expect(server.streams.get('lease-bonus-ledger.relay')?.at(-1)).toEqual({
      type: 'LeaseState',
      data: { owner: 'ledger-0', token: 1, expiresAt: lease.expiresAt, position: position(41) },
    });
  });
});
