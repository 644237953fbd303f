/**
 * `reelstream replay --source postgres://…`: the log written through the PostgreSQL event store
 * (in a schema of its own, dropped after), read back into the agent report the workload counted.
 * Without a PostgreSQL server, a notice says it did not run.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { PostgresEventStore } from '@reelstream/platform-eventstore-postgres';
import { postgresForTests, postgresNotice } from '@reelstream/testing';
import { writeSyntheticLog } from '../../../libs/analytics/application/test/synthetic-log.js';
import { cli, expectedAgentRows, OPERATORS, writeDataFile } from './cli-harness.js';

const server = await postgresForTests();

if (server) {
  describe('reelstream replay --source postgres://', () => {
    it('reads the log from PostgreSQL into the agent report the workload counted', async () => {
      const files = await writeDataFile(1);
      const { url, drop } = await server.schema('cli');
      try {
        const store = await PostgresEventStore.open(url);
        const written = await writeSyntheticLog(store, { operators: OPERATORS, sessions: 12, roundsPerSession: 4 });
        await store.close();
        const run = await cli([
          'replay',
          '--source',
          url,
          '--operators',
          files.operatorsFile,
          '--no-progress',
          '--format',
          'json',
          '--report',
          'agent',
        ]);
        expect(run).toMatchObject({ code: 0, stderr: '' });
        const { agent } = JSON.parse(run.stdout) as { agent: { notes: string[]; rows: Record<string, unknown>[] } };
        // Every wallet answer found its request: the log was read in the order it was written.
        expect(agent.notes.filter((note) => note.includes('no request in memory'))).toEqual([]);
        const expected = expectedAgentRows(written.agent);
        expect(agent.rows.map(({ timeZone: _zone, ...row }) => row)).toEqual(
          expect.arrayContaining(expected.map((row) => expect.objectContaining(row))),
        );
        expect(agent.rows).toHaveLength(expected.length);
      } finally {
        await drop();
        rmSync(files.dir, { recursive: true, force: true });
      }
    }, 120_000);
  });
} else {
  process.stdout.write(postgresNotice('reelstream replay --source postgres://'));
}
