/**
 * The order of $all where positions gain a digit. In a schema of its own the identity column starts
 * at 1, so one append of a dozen events numbers them 1 to 12 in one transaction: read by the text of
 * the numbers (the order of "10" before "9") they come back 1, 10, 11, 12, 2, …, and a reader that
 * pages by position skips or repeats events. The contract suite cannot force this (it shares a
 * schema whose positions are anywhere); stream revisions, which always start at 0, it covers itself.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@reelstream/platform-ports';
import { postgresForTests, postgresNotice } from '@reelstream/testing';
import { openPostgresEventStore, type PostgresEventStore } from '../src/index.js';

const server = await postgresForTests();
const ids = (events: readonly RecordedEvent[]) => events.map((e) => e.eventId);
const events = (count: number) =>
  Array.from({ length: count }, (_, n) => ({ eventId: randomUUID(), type: 'Numbered', data: { n } }));

if (server) {
  describe('PostgreSQL store: $all in the order of the numbers', () => {
    let store: PostgresEventStore;
    let drop: () => Promise<void> = async () => undefined;
    const written: string[] = [];

    beforeAll(async () => {
      const schema = await server.schema('order');
      drop = schema.drop;
      ({ store } = await openPostgresEventStore(schema.url));
      // Positions 1–12 in one transaction, then 13–112 in another: past 9 and past 99.
      const first = events(12);
      await store.append('order-1', first, { expectedRevision: 'no_stream' });
      written.push(...first.map((e) => e.eventId));
      const more = events(100);
      await store.append('payment-1', more, { expectedRevision: 'no_stream' });
      written.push(...more.map((e) => e.eventId));
    });
    afterAll(async () => {
      await store.close();
      await drop();
    });

    it('reads $all forwards and backwards, whole, in pages and through a prefix, in position order', async () => {
      expect(ids(await store.readAll())).toEqual(written);
      expect(ids(await store.readAll({ direction: 'backwards' }))).toEqual([...written].reverse());
      expect(ids(await store.readAll({ filter: { streamPrefixes: ['order-', 'payment-'] } }))).toEqual(written);
      expect(ids(await store.readAll({ filter: { streamPrefixes: ['order-'] } }))).toEqual(written.slice(0, 12));

      const paged: RecordedEvent[] = [];
      for (;;) {
        const last = paged[paged.length - 1];
        const page = await store.readAll({ maxCount: 5, ...(last ? { fromPosition: last.position } : {}) });
        paged.push(...page);
        if (page.length < 5) break;
      }
      expect(ids(paged)).toEqual(written);
      for (let i = 1; i < paged.length; i++)
        expect(store.comparePositions(paged[i - 1]?.position ?? '', paged[i]?.position ?? '')).toBeLessThan(0);
    });

    it('delivers $all to a subscription from the start in position order', async () => {
      const subscription = store.subscribeToAll({ from: 'start' });
      const delivered: string[] = [];
      try {
        for await (const event of subscription) {
          delivered.push(event.eventId);
          if (delivered.length === written.length) break;
        }
      } finally {
        await subscription.close();
      }
      expect(delivered).toEqual(written);
    });
  });
} else {
  process.stdout.write(postgresNotice('PostgreSQL $all order past positions 9 and 99'));
}
