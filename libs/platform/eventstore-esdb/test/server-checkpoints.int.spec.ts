/**
 * The server's `checkpointReached` through the real `@eventstore/db-client` 6.2.1
 * subscription (its Transform and filter callback), against a scripted gRPC stream (no EventStoreDB
 * server can run here; see scripted-grpc.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { startCatchUp } from '@reelstream/platform-eventsourcing';
import type { CheckpointStore, Position, SubscriptionItem } from '@reelstream/platform-ports';
import { EsdbEventStore } from '../src/esdb-event-store.js';
import { encodePosition } from '../src/position.js';
import {
  caughtUpResponse,
  checkpointResponse,
  eventResponse,
  scriptedClient,
  type ScriptedCall,
} from './scripted-grpc.js';

const at = (commit: number) => encodePosition({ commit: BigInt(commit), prepare: BigInt(commit) });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/* eslint-disable @typescript-eslint/no-explicit-any -- the client's generated protobuf requests are untyped here */
const isSubscription = (request: any): boolean => request.getOptions().hasSubscription();
const startOf = (request: any): 'start' | number => {
  const all = request.getOptions().getAll();
  return all.hasStart() ? 'start' : Number(all.getPosition().getCommitPosition());
};
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The checkpoint store's contract, in memory: what `startCatchUp` writes is what these tests read. */
class MemoryCheckpoints implements CheckpointStore {
  readonly positions = new Map<string, Position>();
  readonly writes: Position[] = [];
  load(name: string) {
    return Promise.resolve(this.positions.get(name));
  }
  store(name: string, position: Position) {
    this.positions.set(name, position);
    this.writes.push(position);
    return Promise.resolve();
  }
}

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

describe('EventStoreDB server checkpoints (real client subscription, scripted gRPC stream)', () => {
  it('yields the server checkpoints in their place among the events once an item past them came, forwards only, and leaves them out of the plain iteration', async () => {
    const script = (): ScriptedCall => ({
      responses: [
        eventResponse({ streamId: 'wanted-1', revision: 0, commit: 10 }),
        checkpointResponse(400),
        checkpointResponse(300), // behind the last one: a restart from it would only rescan
        eventResponse({ streamId: 'wanted-2', revision: 0, commit: 450 }),
        checkpointResponse(900),
        checkpointResponse(1_200),
        caughtUpResponse(),
      ],
      keepOpen: true,
    });
    const { client } = scriptedClient(script);
    const store = new EsdbEventStore(client);
    const subscription = store.subscribeToAll({ from: 'start', filter: { streamPrefixes: ['wanted-'] } });
    const items: string[] = [];
    for await (const item of subscription.withCheckpoints()) {
      items.push(describeItem(item));
      if (items.length === 4) break;
    }
    // 1,200 is the last: held until the log moves on.
    expect(items).toEqual([
      `event wanted-1@${at(10)}`,
      `checkpoint@${at(400)}`,
      `event wanted-2@${at(450)}`,
      `checkpoint@${at(900)}`,
    ]);
    await subscription.close();

    const plain = new EsdbEventStore(scriptedClient(script).client).subscribeToAll({
      from: 'start',
      filter: { streamPrefixes: ['wanted-'] },
    });
    const events: string[] = [];
    for await (const event of plain) {
      events.push(event.streamId);
      if (events.length === 2) break;
    }
    expect(events).toEqual(['wanted-1', 'wanted-2']);
    await plain.close();
  });

  it('moves a catch-up checkpoint to the server checkpoint only after the event before it was handled, and a restart subscribes from there', async () => {
    const { client, requests } = scriptedClient((request) =>
      isSubscription(request) && startOf(request) === 'start'
        ? {
            responses: [
              eventResponse({ streamId: 'wanted-1', revision: 0, commit: 10 }),
              checkpointResponse(5_000),
              checkpointResponse(6_000),
              caughtUpResponse(),
            ],
            keepOpen: true,
          }
        : { responses: [caughtUpResponse()], keepOpen: true },
    );
    const store = new EsdbEventStore(client);
    const checkpoints = new MemoryCheckpoints();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    const first = startCatchUp({
      store,
      checkpoints,
      name: 'projection',
      filter: { streamPrefixes: ['wanted-'] },
      checkpointIntervalMs: 5,
      handle: async (event) => {
        await gate;
        handled.push(event.streamId);
      },
    });
    // The checkpoint is in the client's buffer behind the event. A fixed wait on purpose: many flush intervals pass with
    // the handler stuck, and none may store a checkpoint.
    await sleep(150);
    expect(checkpoints.writes).toEqual([]);
    release();
    await waitUntil(() => checkpoints.positions.get('projection') === at(5_000));
    await first.stop();
    expect(handled).toEqual(['wanted-1']);
    expect(checkpoints.writes.every((position) => store.comparePositions(position, at(10)) >= 0)).toBe(true);

    const second = startCatchUp({
      store,
      checkpoints,
      name: 'projection',
      filter: { streamPrefixes: ['wanted-'] },
      handle: async () => undefined,
    });
    await waitUntil(() => requests.filter(isSubscription).length === 2);
    await second.stop();
    expect(requests.filter(isSubscription).map(startOf)).toEqual(['start', 5_000]);
  });
});

describe('a server checkpoint at the position of an event not yet delivered (KurrentDB#4970)', () => {
  it('is never handed on before that event, so a restart from the stored checkpoint cannot skip it', async () => {
    // At the end of the log the server checkpoints the position the next append takes.
    const script = (): ScriptedCall => ({
      responses: [
        eventResponse({ streamId: 'wanted-1', revision: 0, commit: 10 }),
        checkpointResponse(500),
        caughtUpResponse(),
        eventResponse({ streamId: 'wanted-2', revision: 0, commit: 500 }),
        checkpointResponse(800),
        eventResponse({ streamId: 'wanted-3', revision: 0, commit: 900 }),
      ],
      keepOpen: true,
    });
    const subscription = new EsdbEventStore(scriptedClient(script).client).subscribeToAll({
      from: 'start',
      filter: { streamPrefixes: ['wanted-'] },
    });
    const items: string[] = [];
    for await (const item of subscription.withCheckpoints()) {
      items.push(describeItem(item));
      if (items.length === 4) break;
    }
    await subscription.close();
    // The checkpoint at 500 is the event's own position: the event goes, the checkpoint is not needed.
    expect(items).toEqual([
      `event wanted-1@${at(10)}`,
      `event wanted-2@${at(500)}`,
      `checkpoint@${at(800)}`,
      `event wanted-3@${at(900)}`,
    ]);
  });

  it('stores nothing past the last handled event while the log is quiet after such a checkpoint', async () => {
    const { client } = scriptedClient(() => ({
      responses: [
        eventResponse({ streamId: 'wanted-1', revision: 0, commit: 10 }),
        checkpointResponse(500),
        caughtUpResponse(),
      ],
      keepOpen: true,
    }));
    const checkpoints = new MemoryCheckpoints();
    const handled: string[] = [];
    const running = startCatchUp({
      store: new EsdbEventStore(client),
      checkpoints,
      name: 'projection',
      filter: { streamPrefixes: ['wanted-'] },
      checkpointIntervalMs: 5,
      handle: async (event) => {
        handled.push(event.streamId);
      },
    });
    await waitUntil(() => handled.length === 1);
    // A fixed wait on purpose: the server checkpoint behind the event reaches the runner, and many flush intervals pass
    // within it; none may store a position past the handled event.
    await sleep(100);
    await running.stop();
    expect(checkpoints.positions.get('projection')).toBe(at(10));
  });
});

function describeItem(item: SubscriptionItem): string {
  return item.kind === 'event' ? `event ${item.event.streamId}@${item.event.position}` : `checkpoint@${item.position}`;
}
