/**
 * The store across a crash and restart of its PostgreSQL server (a failover looks the same to a
 * client): the calls under way fail as the retriable PostgresUnreachableError, the process stays up,
 * the next calls reconnect, and a catch-up runner goes on from where it was, every acknowledged event
 * delivered once and in order. A throwaway cluster of this machine's PostgreSQL plays the server.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCatchUp } from '@reelstream/platform-eventsourcing';
import type { RecordedEvent } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { openPostgresEventStore } from '../src/index.js';
import { postgresBinaries, ThrowawayCluster } from './support/throwaway-cluster.js';

const bin = postgresBinaries();

if (bin) {
  describe('PostgreSQL store: its server crashed and started again', () => {
    let server: ThrowawayCluster;
    let opened: Awaited<ReturnType<typeof openPostgresEventStore>>;

    beforeAll(async () => {
      server = await ThrowawayCluster.create(bin, 'restart');
      server.start();
      const url = new URL(server.url);
      url.searchParams.set('pollIntervalMs', '50');
      opened = await openPostgresEventStore(url.toString());
    }, 120_000);
    afterAll(async () => {
      await opened?.store.close();
      server?.remove();
    });

    it('fails the calls under way retriably, serves the next ones, and its catch-up delivers every acknowledged event once', async () => {
      const { store, checkpoints } = opened;
      const prefix = `restart${randomUUID().slice(0, 8)}-`;
      const streamId = `${prefix}1`;
      const delivered: number[] = [];
      const runner = startCatchUp({
        store,
        checkpoints,
        name: `restart-${randomUUID()}`,
        filter: { streamPrefixes: [prefix] },
        retryDelayMs: 50,
        handle: async (event: RecordedEvent) => void delivered.push((event.data as { n: number }).n),
      });
      const append = (n: number) =>
        store.append(streamId, [{ eventId: randomUUID(), type: 'Counted', data: { n } }], { expectedRevision: 'any' });
      for (let n = 0; n < 10; n++) await append(n);

      const inFlight = Promise.allSettled(Array.from({ length: 10 }, (_, n) => append(10 + n)));
      server.crash();
      const outcomes = await inFlight;
      server.start();
      for (let n = 20; n < 30; n++) await append(n);

      for (const outcome of outcomes)
        if (outcome.status === 'rejected')
          expect(outcome.reason).toMatchObject({ name: 'PostgresUnreachableError', retriable: true });
      const stored = (await store.readStream(streamId)).map((event) => (event.data as { n: number }).n);
      const acknowledged = outcomes.flatMap((outcome, n) => (outcome.status === 'fulfilled' ? [10 + n] : []));
      const expected = [
        ...Array.from({ length: 10 }, (_, n) => n),
        ...acknowledged,
        ...Array.from({ length: 10 }, (_, n) => 20 + n),
      ];
      for (const n of expected) expect(stored).toContain(n);
      expect(new Set(stored).size).toBe(stored.length);
      await eventually(() => expect(delivered).toEqual(stored), 20_000);
      await runner.stop();
      process.stdout.write(
        `[server-restart] crashed under 10 appends: ${10 - acknowledged.length} failed retriably, ${acknowledged.length} acknowledged; ${stored.length} stored, all delivered in order\n`,
      );
    }, 60_000);
  });
} else {
  process.stdout.write('[server-restart] NOT run: no PostgreSQL binaries (pg_config --bindir) on this machine.\n');
}
