import { expect, it } from '@jest/globals';
import type { RecordedEvent } from '@reelstream/platform-ports';
import { anEvent, at, type EventStoreHarness } from './harness.js';

const ids = (events: readonly RecordedEvent[]) => events.map((e) => e.eventId);

/** Catch-up subscriptions on $all: replay, then live events, in global order. */
export function subscribeCases(harness: () => EventStoreHarness): void {
  it("from 'start' replays the past, then follows live appends", async () => {
    const { store } = await harness().open();
    const past = [anEvent(), anEvent(), anEvent()];
    await store.append(harness().stream('order-1'), past, { expectedRevision: 'no_stream' });
    const reader = harness().track(store.subscribeToAll({ from: 'start', filter: harness().filter }));
    expect(ids(await reader.take(3))).toEqual(ids(await store.readAll({ filter: harness().filter })));

    const live = [anEvent(), anEvent()];
    await store.append(harness().stream('order-1'), [at(live, 0)], { expectedRevision: 2 });
    await store.append(harness().stream('order-2'), [at(live, 1)], { expectedRevision: 'no_stream' });
    const followed = await reader.take(2);
    expect(ids(followed)).toEqual(live.map((e) => e.eventId));
    expect(followed.map((e) => e.revision)).toEqual([3, 0]);
  });

  it('sees appends made through another client', async () => {
    const { store } = await harness().open();
    const writer = await harness().open();
    const reader = harness().track(store.subscribeToAll({ from: 'start', filter: harness().filter }));
    const event = anEvent();
    await writer.store.append(harness().stream('order-1'), [event], { expectedRevision: 'no_stream' });
    expect(ids(await reader.take(1))).toEqual([event.eventId]);
  });

  it('from a position delivers only the events after it', async () => {
    const { store } = await harness().open();
    const events = [anEvent(), anEvent(), anEvent(), anEvent()];
    await store.append(harness().stream('order-1'), events, { expectedRevision: 'no_stream' });
    const stored = await store.readStream(harness().stream('order-1'));
    const reader = harness().track(store.subscribeToAll({ from: at(stored, 1).position, filter: harness().filter }));
    expect(ids(await reader.take(2))).toEqual([at(events, 2).eventId, at(events, 3).eventId]);
    const later = anEvent();
    await store.append(harness().stream('order-1'), [later], { expectedRevision: 3 });
    expect(ids(await reader.take(1))).toEqual([later.eventId]);
  });

  it("from 'end' delivers only events appended after subscribing", async () => {
    const { store } = await harness().open();
    await store.append(harness().stream('order-1'), [anEvent(), anEvent()], { expectedRevision: 'no_stream' });
    const reader = harness().track(store.subscribeToAll({ from: 'end', filter: harness().filter }));
    const fresh = [anEvent(), anEvent()];
    await store.append(harness().stream('order-1'), [at(fresh, 0)], { expectedRevision: 1 });
    await store.append(harness().stream('order-2'), [at(fresh, 1)], { expectedRevision: 'no_stream' });
    expect(ids(await reader.take(2))).toEqual(fresh.map((e) => e.eventId));
  });

  it('applies the prefix filter to replayed and live events', async () => {
    const { store } = await harness().open();
    const wanted = harness().stream('order-');
    const reader = harness().track(store.subscribeToAll({ from: 'start', filter: { streamPrefixes: [wanted] } }));
    const expected: string[] = [];
    for (const name of ['payment-1', 'order-1', 'payment-2', 'order-2', 'refund-1', 'order-3']) {
      const event = anEvent();
      await store.append(harness().stream(name), [event], { expectedRevision: 'no_stream' });
      if (name.startsWith('order-')) expected.push(event.eventId);
    }
    const delivered = await reader.take(3);
    expect(ids(delivered)).toEqual(expected);
    expect(delivered.every((e) => e.streamId.startsWith(wanted))).toBe(true);
  });

  it('ends the iteration when closed: a pending next() resolves done', async () => {
    const { store } = await harness().open();
    await store.append(harness().stream('order-1'), [anEvent()], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToAll({ from: 'start', filter: harness().filter });
    const reader = harness().track(subscription);
    await reader.take(1);
    const pending = reader.next(5_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closedAt = Date.now();
    await subscription.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(Date.now() - closedAt).toBeLessThan(2_000);

    const received: RecordedEvent[] = [];
    for await (const event of subscription) received.push(event);
    expect(received).toEqual([]);
  });

  it('yields nothing more once closed, even events it had already read', async () => {
    const { store } = await harness().open();
    await store.append(harness().stream('order-1'), [anEvent(), anEvent(), anEvent()], {
      expectedRevision: 'no_stream',
    });
    const subscription = store.subscribeToAll({ from: 'start', filter: harness().filter });
    harness().track(subscription);
    let seen = 0;
    for await (const _event of subscription) {
      seen += 1;
      if (seen === 2) await subscription.close();
    }
    expect(seen).toBe(2);
  });
}
