import { expect, it } from '@jest/globals';
import { isWrongExpectedRevision, type AppendResult, type EventStore } from '@reelstream/platform-ports';
import { anEvent, at, type EventStoreHarness } from './harness.js';
import { catchUpWhileAppending, gapsOf } from './position-gap.js';

const WRITERS = 50;
const APPENDS_PER_WRITER = 4;
const RACE_ROUNDS = 20;
const GAP_WRITER_CLIENTS = 4;
const GAP_STREAMS_PER_CLIENT = 6;
const GAP_APPENDS_PER_STREAM = 15;

/** Exactly one winner per expected revision; nothing lost or doubled under concurrency. */
export function concurrencyCases(harness: () => EventStoreHarness): void {
  it(`lets ${WRITERS} concurrent appenders on ${WRITERS} streams all succeed, each event once in $all, in one consistent order`, async () => {
    const { store } = await harness().open();
    const streams = Array.from({ length: WRITERS }, (_, i) => harness().stream(`cart-${i}`));
    const written = new Map<string, string[]>();
    await Promise.all(
      streams.map(async (stream) => {
        const ids: string[] = [];
        written.set(stream, ids);
        let expected: number | 'no_stream' = 'no_stream';
        for (let i = 0; i < APPENDS_PER_WRITER; i++) {
          const batch = i % 2 === 0 ? [anEvent()] : [anEvent(), anEvent()];
          const result: AppendResult = await store.append(stream, batch, { expectedRevision: expected });
          ids.push(...batch.map((e) => e.eventId));
          expected = result.nextExpectedRevision;
          expect(expected).toBe(ids.length - 1);
        }
      }),
    );

    const all = await store.readAll({ filter: harness().filter });
    const total = [...written.values()].reduce((n, ids) => n + ids.length, 0);
    expect(all).toHaveLength(total);
    expect(new Set(all.map((e) => e.eventId)).size).toBe(total);
    for (let i = 1; i < all.length; i++)
      expect(store.comparePositions(at(all, i - 1).position, at(all, i).position)).toBeLessThan(0);
    // Each stream's events appear in $all in revision order, and match a read of the stream.
    for (const stream of streams) {
      const inAll = all.filter((e) => e.streamId === stream);
      expect(inAll.map((e) => e.eventId)).toEqual(written.get(stream));
      expect(inAll.map((e) => e.revision)).toEqual(inAll.map((_, i) => i));
      expect((await store.readStream(stream)).map((e) => e.position)).toEqual(inAll.map((e) => e.position));
    }
    const backwards = await store.readAll({ filter: harness().filter, direction: 'backwards' });
    expect(backwards.map((e) => e.eventId)).toEqual(all.map((e) => e.eventId).reverse());
  });

  it(`lets exactly one of two clients win a race on one stream at the same expected revision (${RACE_ROUNDS} rounds)`, async () => {
    const a = await harness().open();
    const b = await harness().open();
    const stream = harness().stream('race-1');
    await a.store.append(stream, [anEvent()], { expectedRevision: 'no_stream' });
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const contenders: EventStore[] = round % 2 === 0 ? [a.store, b.store] : [b.store, a.store];
      const outcomes = await Promise.allSettled(
        contenders.map((store) => store.append(stream, [anEvent()], { expectedRevision: round })),
      );
      const winners = outcomes.filter((o) => o.status === 'fulfilled');
      const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(isWrongExpectedRevision(losers[0])).toBe(true);
      expect(losers[0]).toMatchObject({ actual: round + 1 });
    }
    expect(await a.store.streamRevision(stream)).toBe(RACE_ROUNDS);
    expect(await b.store.readStream(stream)).toHaveLength(RACE_ROUNDS + 1);
  });

  it(`never skips an event by position: a reader paging $all and a subscription, while ${GAP_WRITER_CLIENTS} clients append at once, get every event once, in order`, async () => {
    const writers = await Promise.all(Array.from({ length: GAP_WRITER_CLIENTS }, () => harness().open()));
    const { store: reader } = await harness().open();
    const run = await catchUpWhileAppending({
      writers: writers.map((client) => client.store),
      reader,
      prefix: harness().stream('gap-'),
      streamsPerWriter: GAP_STREAMS_PER_CLIENT,
      appendsPerStream: GAP_APPENDS_PER_STREAM,
    });
    for (const read of [run.paged, run.subscribed]) {
      expect(gapsOf(run.written, read)).toEqual({ missing: [], doubled: [] });
      for (let i = 1; i < read.length; i++)
        expect(reader.comparePositions(at(read, i - 1).position, at(read, i).position)).toBeLessThan(0);
    }
    expect(run.subscribed.map((e) => e.eventId)).toEqual(run.paged.map((e) => e.eventId));
  }, 120_000);
}
