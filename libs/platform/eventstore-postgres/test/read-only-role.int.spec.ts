/**
 * A role that may only read opens the store and reads it, and cannot write: how the analysts' daily
 * reports read production (k8s/analytics/postgres-reader-secret.template.yaml has the GRANTs used here).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { postgresForTests, postgresNotice } from '@reelstream/testing';
import { openPostgresEventStore } from '../src/index.js';

const server = await postgresForTests();

if (server) {
  describe('PostgreSQL store: a read-only role', () => {
    let url = '';
    let drop: () => Promise<void> = async () => undefined;
    const role = `reader_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const admin = (statement: string) => async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };

    beforeAll(async () => {
      ({ url, drop } = await server.schema('read_only'));
      // The owner opens first: the tables exist before the reader is granted reading.
      const { store } = await openPostgresEventStore(url);
      await store.append('round-1', [{ eventId: randomUUID(), type: 'RoundClosed', data: { n: 1 } }], {
        expectedRevision: 'no_stream',
      });
      await store.close();
      const schema = new URL(url).searchParams.get('schema') ?? '';
      await admin(`CREATE ROLE ${role} LOGIN`)();
      await admin(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`)();
      await admin(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${role}`)();
    });
    afterAll(async () => {
      await drop();
      await admin(`DROP OWNED BY ${role}`)();
      await admin(`DROP ROLE IF EXISTS ${role}`)();
    });

    it('opens the store without creating anything, reads the log, and is refused an append', async () => {
      const asReader = new URL(url);
      asReader.username = role;
      asReader.password = '';
      // As the CLI opens it (EVENT_STORE_URL through @reelstream/platform-backends): the store, its checkpoints and leases.
      const { store } = await openPostgresEventStore(asReader.toString());
      try {
        expect((await store.readAll()).map((event) => event.type)).toEqual(['RoundClosed']);
        await expect(
          store.append('round-2', [{ eventId: randomUUID(), type: 'RoundClosed', data: { n: 2 } }], {
            expectedRevision: 'no_stream',
          }),
        ).rejects.toThrow(/permission denied/);
      } finally {
        await store.close();
      }
    });
  });
} else {
  process.stdout.write(postgresNotice('PostgreSQL read-only role test'));
}
