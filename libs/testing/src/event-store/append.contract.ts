import { expect, it } from '@jest/globals';
import { isWrongExpectedRevision, type WrongExpectedRevisionError } from '@reelstream/platform-ports';
import { anEvent, type EventStoreHarness } from './harness.js';

async function refusal(promise: Promise<unknown>): Promise<WrongExpectedRevisionError> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!isWrongExpectedRevision(error)) throw new Error(`expected a WrongExpectedRevisionError, got ${String(error)}`);
  return error;
}

/**
 * Optimistic concurrency and idempotent appends.
 *
 * Decision on a reused event id: an append is idempotent only as a RETRY, i.e. when the same
 * ids already follow the expected revision it names. The same id sent with an expected revision
 * that does not line up with where it is stored is refused as a wrong expected revision, like
 * any stale write. (Sent at the stream's current revision, the adapters differ and the contract
 * says nothing: SQLite refuses it with DuplicateEventIdError, EventStoreDB stores a second copy.)
 */
export function appendCases(harness: () => EventStoreHarness): void {
  it('creates a stream with no_stream and numbers its events from revision 0', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    const result = await store.append(stream, [anEvent(), anEvent()], { expectedRevision: 'no_stream' });
    expect(result.nextExpectedRevision).toBe(1);
    const events = await store.readStream(stream);
    expect(events.map((e) => e.revision)).toEqual([0, 1]);
    expect(events[1]?.position).toBe(result.position);
    expect(await store.streamRevision(stream)).toBe(1);
  });

  it('refuses a second no_stream append and reports the actual revision', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    await store.append(stream, [anEvent(), anEvent()], { expectedRevision: 'no_stream' });
    const error = await refusal(store.append(stream, [anEvent()], { expectedRevision: 'no_stream' }));
    expect(error.streamId).toBe(stream);
    expect(error.actual).toBe(1);
    expect(await store.streamRevision(stream)).toBe(1);
  });

  it('appends at the exact expected revision and refuses a stale one', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    await store.append(stream, [anEvent()], { expectedRevision: 'no_stream' });
    const second = await store.append(stream, [anEvent()], { expectedRevision: 0 });
    expect(second.nextExpectedRevision).toBe(1);
    const error = await refusal(store.append(stream, [anEvent()], { expectedRevision: 0 }));
    expect(error.expected).toBe(0);
    expect(error.actual).toBe(1);
    const ahead = await refusal(store.append(stream, [anEvent()], { expectedRevision: 5 }));
    expect(ahead.actual).toBe(1);
    expect(await store.readStream(stream)).toHaveLength(2);
  });

  it("appends with 'any' without checking, to a new or an existing stream", async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    expect((await store.append(stream, [anEvent()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(0);
    expect((await store.append(stream, [anEvent(), anEvent()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(
      2,
    );
    expect(await store.streamRevision(stream)).toBe(2);
  });

  it("refuses 'stream_exists' on a missing stream and accepts it on an existing one", async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    const error = await refusal(store.append(stream, [anEvent()], { expectedRevision: 'stream_exists' }));
    expect(error.actual).toBe('no_stream');
    expect(await store.readStream(stream)).toEqual([]);
    await store.append(stream, [anEvent()], { expectedRevision: 'no_stream' });
    expect((await store.append(stream, [anEvent()], { expectedRevision: 'stream_exists' })).nextExpectedRevision).toBe(
      1,
    );
  });

  it('treats a retried append (same event ids, same expected revision) as done: one copy, same result', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    const batch = [anEvent(), anEvent()];
    const first = await store.append(stream, batch, { expectedRevision: 'no_stream' });
    const retry = await store.append(stream, batch, { expectedRevision: 'no_stream' });
    expect(retry).toEqual(first);

    const next = [anEvent()];
    const third = await store.append(stream, next, { expectedRevision: 1 });
    await store.append(stream, [anEvent()], { expectedRevision: 2 });
    // Still a retry after the stream moved on: the ids follow the revision the caller named.
    expect(await store.append(stream, next, { expectedRevision: 1 })).toEqual(third);
    expect(await store.append(stream, batch, { expectedRevision: 'no_stream' })).toEqual(first);

    const ids = (await store.readStream(stream)).map((e) => e.eventId);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  });

  it('treats a retried append across revision 9 as done (revisions compared as numbers)', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    await store.append(
      stream,
      Array.from({ length: 8 }, () => anEvent()),
      { expectedRevision: 'no_stream' },
    );
    const batch = Array.from({ length: 5 }, () => anEvent());
    const first = await store.append(stream, batch, { expectedRevision: 7 });
    expect(first.nextExpectedRevision).toBe(12);
    expect(await store.append(stream, batch, { expectedRevision: 7 })).toEqual(first);
    expect(await store.append(stream, batch, { expectedRevision: 'any' })).toEqual(first);
    expect(await store.readStream(stream)).toHaveLength(13);
  });

  it('refuses an event id reused at an expected revision it does not follow (not a retry)', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    const a = anEvent();
    const b = anEvent();
    await store.append(stream, [a], { expectedRevision: 'no_stream' });
    await store.append(stream, [b], { expectedRevision: 0 });
    // `a` sits at revision 0, so it cannot be a retry of an append expecting revision 0 (that one wrote `b`).
    expect((await refusal(store.append(stream, [a], { expectedRevision: 0 }))).actual).toBe(1);
    // Nor of a no_stream append of `b`.
    expect((await refusal(store.append(stream, [b], { expectedRevision: 'no_stream' }))).actual).toBe(1);
    // A partial match is no retry either.
    expect((await refusal(store.append(stream, [a, anEvent()], { expectedRevision: 'no_stream' }))).actual).toBe(1);
    expect((await store.readStream(stream)).map((e) => e.eventId)).toEqual([a.eventId, b.eventId]);
  });

  it('treats an empty append as a no-op that still checks the expected revision', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    await refusal(store.append(stream, [], { expectedRevision: 'stream_exists' }));
    await store.append(stream, [anEvent()], { expectedRevision: 'no_stream' });
    expect((await store.append(stream, [], { expectedRevision: 0 })).nextExpectedRevision).toBe(0);
    expect((await refusal(store.append(stream, [], { expectedRevision: 3 }))).actual).toBe(0);
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  it('generates an event id (a UUID) when the caller gives none', async () => {
    const { store } = await harness().open();
    const stream = harness().stream('order-1');
    await store.append(
      stream,
      [
        { type: 'OrderPlaced', data: { n: 1 } },
        { type: 'OrderPlaced', data: { n: 2 } },
      ],
      { expectedRevision: 'no_stream' },
    );
    const [first, second] = await store.readStream(stream);
    expect(first?.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(second?.eventId).not.toBe(first?.eventId);
  });
}
