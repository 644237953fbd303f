import { expect, it } from '@jest/globals';
import type { RecordedEvent } from '@reelstream/platform-ports';
import { anEvent, at, type EventStoreHarness } from './harness.js';

const ids = (events: readonly RecordedEvent[]) => events.map((e) => e.eventId);

/** Reading one stream and the global order ($all, always through the test's prefix). */
export function readCases(harness: () => EventStoreHarness): void {
  it('reads a stream forwards and backwards, from a revision (inclusive), at most maxCount', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    const batch = [anEvent(), anEvent(), anEvent(), anEvent(), anEvent()];
    await store.append(stream, batch, { expectedRevision: 'no_stream' });
    const all = batch.map((e) => e.eventId);

    expect(ids(await store.readStream(stream))).toEqual(all);
    expect(ids(await store.readStream(stream, { direction: 'backwards' }))).toEqual([...all].reverse());
    expect(ids(await store.readStream(stream, { fromRevision: 2 }))).toEqual(all.slice(2));
    expect(ids(await store.readStream(stream, { fromRevision: 2, maxCount: 2 }))).toEqual(all.slice(2, 4));
    expect(ids(await store.readStream(stream, { direction: 'backwards', fromRevision: 2 }))).toEqual([
      all[2],
      all[1],
      all[0],
    ]);
    expect(ids(await store.readStream(stream, { direction: 'backwards', maxCount: 2 }))).toEqual([all[4], all[3]]);
    expect(await store.readStream(stream, { fromRevision: 5 })).toEqual([]);
  });

  it('keeps a stream in revision order past revision 9 and 99 (numbers, not their digits)', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    const batch = Array.from({ length: 105 }, () => anEvent());
    await store.append(stream, batch.slice(0, 8), { expectedRevision: 'no_stream' });
    await store.append(stream, batch.slice(8), { expectedRevision: 7 });
    const all = batch.map((e) => e.eventId);

    expect((await store.readStream(stream)).map((e) => e.revision)).toEqual(all.map((_, revision) => revision));
    expect(ids(await store.readStream(stream))).toEqual(all);
    expect(ids(await store.readStream(stream, { direction: 'backwards' }))).toEqual([...all].reverse());
    expect(ids(await store.readStream(stream, { fromRevision: 8, maxCount: 4 }))).toEqual(all.slice(8, 12));
    expect(ids(await store.readStream(stream, { fromRevision: 98, maxCount: 4 }))).toEqual(all.slice(98, 102));
    expect(ids(await store.readStream(stream, { direction: 'backwards', fromRevision: 101, maxCount: 4 }))).toEqual(
      all.slice(98, 102).reverse(),
    );
    expect(ids(await store.readAll({ filter: harness().filter }))).toEqual(all);
  });

  it('reads a missing stream as empty, with no revision', async () => {
    const { store } = await harness().open();
    expect(await store.readStream(harness().stream('never-written'))).toEqual([]);
    expect(await store.readStream(harness().stream('never-written'), { direction: 'backwards' })).toEqual([]);
    expect(await store.streamRevision(harness().stream('never-written'))).toBeUndefined();
  });

  it('records what was appended: stream, revision, id, type, data, time, increasing positions', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    const before = Date.now();
    const event = anEvent('OrderPlaced', {
      amount: 1_250,
      currency: 'EUR',
      lines: [{ sku: 'x', qty: 2 }],
      note: 'ünïcødé ✓',
      gift: false,
      coupon: null,
    });
    const next = anEvent('OrderShipped');
    await store.append(stream, [event, next], { expectedRevision: 'no_stream' });
    const stored = await store.readStream(stream);
    const first = at(stored, 0);
    const second = at(stored, 1);
    expect(first).toMatchObject({
      streamId: stream,
      revision: 0,
      eventId: event.eventId,
      type: 'OrderPlaced',
      data: event.data,
    });
    expect(second).toMatchObject({ revision: 1, eventId: next.eventId, type: 'OrderShipped' });
    expect(store.comparePositions(first.position, second.position)).toBeLessThan(0);
    expect(store.comparePositions(second.position, first.position)).toBeGreaterThan(0);
    expect(store.comparePositions(first.position, first.position)).toBe(0);
    const recordedAt = Date.parse(first.recordedAt);
    expect(recordedAt).toBeGreaterThanOrEqual(before - 60_000);
    expect(recordedAt).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it('round-trips metadata: correlation, causation, trace context, custom fields', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    const metadata = {
      correlationId: 'c0ffee00-0000-4000-8000-000000000001',
      causationId: 'c0ffee00-0000-4000-8000-000000000002',
      operatorId: 'op-7',
      occurredAt: '2026-03-01T12:34:56.789Z',
      schemaVersion: 2,
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      tracestate: 'vendor=opaque',
      custom: { nested: [1, 'two', { three: true }] },
    };
    await store.append(stream, [anEvent('OrderPlaced', {}, metadata), anEvent()], { expectedRevision: 'no_stream' });
    const [withMetadata, without] = await store.readStream(stream);
    expect(withMetadata?.metadata).toEqual(metadata);
    expect(without?.metadata).toEqual({});
  });

  it('reads $all forwards and backwards from an exclusive position, through a prefix filter', async () => {
    const { store } = await harness().open();
    const other = `${harness().prefix.slice(0, -1)}x-`; // a different category sharing the first characters
    const written: string[] = [];
    for (let i = 0; i < 3; i++) {
      for (const name of ['order-1', 'order-2', 'payment-1']) {
        const event = anEvent();
        await store.append(harness().stream(name), [event], { expectedRevision: 'any' });
        written.push(event.eventId);
      }
      await store.append(`${other}order-1`, [anEvent()], { expectedRevision: 'any' });
    }

    const forwards = await store.readAll({ filter: harness().filter });
    expect(ids(forwards)).toEqual(written);
    for (let i = 1; i < forwards.length; i++)
      expect(store.comparePositions(at(forwards, i - 1).position, at(forwards, i).position)).toBeLessThan(0);

    const afterSecond = await store.readAll({ filter: harness().filter, fromPosition: at(forwards, 1).position });
    expect(ids(afterSecond)).toEqual(written.slice(2));
    expect(
      ids(await store.readAll({ filter: harness().filter, fromPosition: at(forwards, 1).position, maxCount: 3 })),
    ).toEqual(written.slice(2, 5));

    const backwards = await store.readAll({
      filter: harness().filter,
      direction: 'backwards',
      fromPosition: at(forwards, 4).position,
    });
    expect(ids(backwards)).toEqual(written.slice(0, 4).reverse());
    expect(ids(await store.readAll({ filter: harness().filter, direction: 'backwards', maxCount: 2 }))).toEqual(
      written.slice(-2).reverse(),
    );
    expect(await store.readAll({ filter: harness().filter, fromPosition: at(forwards, -1).position })).toEqual([]);
  });

  it('filters $all by several prefixes, including ones narrower than a category', async () => {
    const { store } = await harness().open();
    const expected: string[] = [];
    for (const name of ['order-1', 'order-2', 'payment-1', 'order-10', 'refund-1']) {
      const event = anEvent();
      await store.append(harness().stream(name), [event], { expectedRevision: 'no_stream' });
      if (name === 'order-1' || name === 'order-10' || name === 'refund-1') expected.push(event.eventId);
    }
    const read = await store.readAll({
      filter: { streamPrefixes: [harness().stream('order-1'), harness().stream('refund-')] },
    });
    expect(ids(read)).toEqual(expected);
    expect(read.map((e) => e.streamId)).toEqual([
      harness().stream('order-1'),
      harness().stream('order-10'),
      harness().stream('refund-1'),
    ]);
  });
}
