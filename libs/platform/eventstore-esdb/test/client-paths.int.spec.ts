/**
 * The adapter through the real `@eventstore/db-client` 6.2.1 read and subscription paths, against a
 * scripted gRPC channel (no EventStoreDB server can run here; see scripted-grpc.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { BACKWARDS, END, type EventStoreDBClient } from '@eventstore/db-client';
import { EsdbCheckpointStore } from '../src/checkpoints.js';
import { EsdbEventStore } from '../src/esdb-event-store.js';
import { encodePosition } from '../src/position.js';
import { caughtUpResponse, eventResponse, scriptedClient, type ScriptedCall } from './scripted-grpc.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the client's generated protobuf requests are untyped here */
const filterOf = (request: any) => {
  const options = request.getOptions();
  if (!options.hasFilter()) return 'none';
  const expression = options.getFilter().getStreamIdentifier();
  return expression.getPrefixList().length > 0
    ? { prefixes: expression.getPrefixList() }
    : { regex: expression.getRegex() };
};
const isSubscription = (request: any) => request.getOptions().hasSubscription();
const startOf = (request: any) => {
  const all = request.getOptions().getAll();
  if (all.hasStart()) return 'start';
  if (all.hasEnd()) return 'end';
  return Number(all.getPosition().getCommitPosition());
};
/* eslint-enable @typescript-eslint/no-explicit-any */

describe('EventStoreDB client paths against a scripted gRPC channel', () => {
  it('asks the server to filter a backwards readAll (maxCount 1) instead of paging through foreign events', async () => {
    const { client, requests } = scriptedClient(() => ({
      responses: [eventResponse({ streamId: 'player-bonus-op1:p1', revision: 0, commit: 10 })],
    }));
    const store = new EsdbEventStore(client);
    const [last] = await store.readAll({
      direction: 'backwards',
      maxCount: 1,
      filter: { streamPrefixes: ['player-bonus-'] },
    });
    expect(last?.streamId).toBe('player-bonus-op1:p1');
    expect(requests).toHaveLength(1);
    expect(filterOf(requests[0])).toEqual({ prefixes: ['player-bonus-'] });
    // Without a prefix filter the server still leaves out system and checkpoint streams.
    await store.readAll({ maxCount: 5 });
    expect(filterOf(requests[1])).toEqual({ regex: '^(?!\\$|checkpoint-|lease-)' });
  });

  it("shows the 6.2.1 client's own readAll sending no filter (what the adapter used before)", async () => {
    const { client, requests } = scriptedClient(() => ({ responses: [] }));
    for await (const _ of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) break;
    expect(filterOf(requests[0])).toBe('none');
  });

  it("starts a from-'end' subscription at the head of $all read when subscribing, not at the server's END", async () => {
    const answers: ScriptedCall[] = [
      { responses: [eventResponse({ streamId: '$stats-1', revision: 3, commit: 100 })] },
      {
        responses: [
          eventResponse({ streamId: 'order-1', revision: 0, commit: 100 }),
          caughtUpResponse(),
          eventResponse({ streamId: 'order-1', revision: 1, commit: 120 }),
        ],
        keepOpen: true,
      },
    ];
    const { client, requests } = scriptedClient(() => answers.shift() ?? { responses: [] });
    const store = new EsdbEventStore(client);
    const subscription = store.subscribeToAll({ from: 'end' });
    const iterator = subscription[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.revision).toBe(1);
    expect(
      requests.map((request) =>
        isSubscription(request) ? `subscribe@${startOf(request)}` : `read@${startOf(request)}`,
      ),
    ).toEqual(['read@end', 'subscribe@100']);
    await subscription.close();
  });

  it('stores a moving checkpoint with one append each, reading the stream only on the first store (scripted client calls)', async () => {
    const calls: string[] = [];
    let revision = -1n;
    const client = {
      async *readStream() {
        calls.push('read');
        if (revision >= 0n) {
          yield {
            event: { revision, data: { position: encodePosition({ commit: revision + 1n, prepare: revision + 1n }) } },
          };
        }
      },
      async appendToStream(_stream: string, _event: unknown, { expectedRevision }: { expectedRevision: unknown }) {
        calls.push(`append@${String(expectedRevision)}`);
        revision += 1n;
        return { nextExpectedRevision: revision };
      },
      async setStreamMetadata() {
        calls.push('meta');
      },
    } as unknown as EventStoreDBClient;
    const checkpoints = new EsdbCheckpointStore(client);
    for (let commit = 1n; commit <= 5n; commit++)
      await checkpoints.store('relay', encodePosition({ commit, prepare: commit }));
    await checkpoints.store('relay', encodePosition({ commit: 5n, prepare: 5n }));
    expect(calls).toEqual(['read', 'meta', 'append@no_stream', 'append@0', 'append@1', 'append@2', 'append@3']);
  });
});
