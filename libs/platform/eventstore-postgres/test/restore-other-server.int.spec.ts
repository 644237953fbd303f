/**
 * A logical dump restored into another PostgreSQL server. Events order by the id of the transaction
 * that wrote them, and a new server hands out smaller ids than the old one did: the store refuses
 * to open there and names the `pg_resetwal --epoch` that moves the counter past the restored events;
 * after it the store opens and what it appends sorts after them. Two throwaway clusters of this
 * machine's PostgreSQL binaries play the old and the new server; the old one starts at epoch 1, as
 * a server that has run long does, the new one at 0.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openPostgresEventStore, TransactionIdsBehindError } from '../src/index.js';
import { postgresBinaries, ThrowawayCluster } from './support/throwaway-cluster.js';

const bin = postgresBinaries();

const numbered = (count: number, from = 0) =>
  Array.from({ length: count }, (_, n) => ({ eventId: randomUUID(), type: 'Numbered', data: { n: from + n } }));

if (bin) {
  describe('PostgreSQL store: a logical dump restored into another server', () => {
    let old: ThrowawayCluster;
    let fresh: ThrowawayCluster;
    const dump = () => join(tmpdir(), `events-${process.pid}.dump`);

    beforeAll(async () => {
      old = await ThrowawayCluster.create(bin, 'old');
      fresh = await ThrowawayCluster.create(bin, 'new');
      old.setEpoch(1n);
      old.start();
      fresh.start();
    }, 120_000);
    afterAll(() => {
      old?.remove();
      fresh?.remove();
      rmSync(dump(), { force: true });
    });

    it('is refused with the epoch to set, and after pg_resetwal opens with new events after the restored ones', async () => {
      const { store: source } = await openPostgresEventStore(old.url);
      await source.append('order-1', numbered(3), { expectedRevision: 'no_stream' });
      await source.append('order-2', numbered(2), { expectedRevision: 'no_stream' });
      const restored = (await source.readAll()).map((event) => event.eventId);
      const lastPosition = (await source.readAll({ direction: 'backwards', maxCount: 1 }))[0]?.position as string;
      await source.close();

      old.run('pg_dump', [
        '--format=custom',
        '--schema=events',
        `--file=${dump()}`,
        `--port=${old.port}`,
        '--host=127.0.0.1',
        '--username=postgres',
        'postgres',
      ]);
      fresh.run('pg_restore', [
        '--exit-on-error',
        '--no-owner',
        `--port=${fresh.port}`,
        '--host=127.0.0.1',
        '--username=postgres',
        '--dbname=postgres',
        dump(),
      ]);

      const refused = await openPostgresEventStore(fresh.url).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(TransactionIdsBehindError);
      const behind = refused as TransactionIdsBehindError;
      expect(behind.retriable).toBe(false);
      expect(behind.newest >> 32n).toBe(1n);
      expect(behind.next >> 32n).toBe(0n);
      expect(behind.epoch).toBe(2n);
      expect(behind.message).toContain('pg_resetwal --epoch=2 --pgdata=<its data directory>');

      fresh.stop();
      fresh.setEpoch(behind.epoch);
      fresh.start();

      const { store } = await openPostgresEventStore(fresh.url);
      try {
        expect((await store.readAll()).map((event) => event.eventId)).toEqual(restored);
        const appended = numbered(2, 3);
        await store.append('order-1', appended, { expectedRevision: 2 });
        const after = await store.readAll({ fromPosition: lastPosition });
        expect(after.map((event) => event.eventId)).toEqual(appended.map((event) => event.eventId));
        expect(store.comparePositions(lastPosition, after[0]?.position as string)).toBeLessThan(0);
        expect((await store.readStream('order-1')).map((event) => (event.data as { n: number }).n)).toEqual([
          0, 1, 2, 3, 4,
        ]);
      } finally {
        await store.close();
      }
    }, 120_000);
  });
} else {
  process.stdout.write(
    'PostgreSQL binaries (pg_config --bindir with initdb) not found: the restore into another server is not tested here\n',
  );
}
