import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import type { AllStreamResolvedEvent } from '@eventstore/db-client';
import type { RecordedEvent } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { EsdbSubscription, SubscriptionDroppedError, type ResolvedEventSource } from '../src/subscription.js';
import { resolvedEvent } from './fixtures.js';

/**
 * Stands in for the client's `AllStreamSubscription`, which is a Node object-mode stream with an
 * `unsubscribe()` that cancels the gRPC call (dist/streams/utils/Subscription.js).
 */
function source() {
  const stream = new PassThrough({ objectMode: true }) as PassThrough & ResolvedEventSource;
  let unsubscribed = 0;
  stream.unsubscribe = async () => {
    unsubscribed++;
  };
  return { stream, push: (e: AllStreamResolvedEvent) => stream.write(e), unsubscribedCount: () => unsubscribed };
}

async function take(subscription: EsdbSubscription, count: number): Promise<RecordedEvent[]> {
  const taken: RecordedEvent[] = [];
  for await (const event of subscription) {
    taken.push(event);
    if (taken.length === count) break;
  }
  return taken;
}

describe('EsdbSubscription', () => {
  it('delivers visible events in order and skips system events and checkpoints', async () => {
    const { stream, push } = source();
    const subscription = new EsdbSubscription(stream, undefined);
    push(resolvedEvent({ streamId: 'round-1', commit: 10n }));
    push(resolvedEvent({ streamId: '$stats-node', commit: 20n }));
    push(resolvedEvent({ streamId: 'checkpoint-relay', commit: 30n }));
    push(resolvedEvent({ streamId: 'round-2', commit: 40n }));
    expect((await take(subscription, 2)).map((e) => e.streamId)).toEqual(['round-1', 'round-2']);
  });

  it('treats its start as exclusive: the event at the start position and earlier ones are dropped', async () => {
    const { stream, push } = source();
    const subscription = new EsdbSubscription(stream, { commit: 20n, prepare: 20n });
    push(resolvedEvent({ streamId: 'round-1', commit: 10n }));
    push(resolvedEvent({ streamId: 'round-2', commit: 20n }));
    push(resolvedEvent({ streamId: 'round-3', commit: 30n }));
    expect((await take(subscription, 1)).map((e) => e.streamId)).toEqual(['round-3']);
  });

  it('applies the prefix filter on the client too', async () => {
    const { stream, push } = source();
    const subscription = new EsdbSubscription(stream, undefined, { streamPrefixes: ['walletTx-'] });
    push(resolvedEvent({ streamId: 'round-1', commit: 10n }));
    push(resolvedEvent({ streamId: 'walletTx-5', commit: 20n }));
    expect((await take(subscription, 1)).map((e) => e.streamId)).toEqual(['walletTx-5']);
  });

  it('ends a waiting iteration when closed, and unsubscribes once', async () => {
    const { stream, push, unsubscribedCount } = source();
    const subscription = new EsdbSubscription(stream, undefined);
    push(resolvedEvent({ streamId: 'round-1', commit: 10n }));
    const seen: string[] = [];
    const iterating = (async () => {
      for await (const event of subscription) seen.push(event.streamId);
    })();
    // Closed once the iteration took round-1 and waits for the next event.
    await eventually(() => {
      if (seen.length === 0) throw new Error('waited for the iteration to take round-1');
    });
    await subscription.close();
    await iterating;
    expect(seen).toEqual(['round-1']);
    expect(unsubscribedCount()).toBe(1);
  });

  it('unsubscribes when the reader stops iterating early', async () => {
    const { stream, push, unsubscribedCount } = source();
    const subscription = new EsdbSubscription(stream, undefined);
    push(resolvedEvent({ streamId: 'round-1', commit: 10n }));
    await take(subscription, 1);
    expect(unsubscribedCount()).toBe(1);
  });

  it('surfaces a failure of the subscription as a thrown error', async () => {
    const { stream, push } = source();
    const subscription = new EsdbSubscription(stream, undefined);
    push(resolvedEvent({ streamId: 'round-1', commit: 10n }));
    setTimeout(() => stream.destroy(new Error('14 UNAVAILABLE: connection dropped')), 10);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of subscription) seen.push(event.streamId);
      })(),
    ).rejects.toThrow('UNAVAILABLE');
    expect(seen).toEqual(['round-1']);
  });

  it('throws when the server ends the subscription without it being closed', async () => {
    const { stream } = source();
    const subscription = new EsdbSubscription(stream, undefined);
    stream.end();
    await expect(take(subscription, 1)).rejects.toThrow(SubscriptionDroppedError);
  });
});
