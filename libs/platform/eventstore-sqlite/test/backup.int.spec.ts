/**
 * The online backup of the runbook (docs/runbooks/backup-and-restore.md): taken while a writer keeps
 * appending, the copy passes its integrity check and holds a consistent prefix of the log, and the
 * restored file opens as an event store. The CLI (`npm run sqlite:backup`) refuses to overwrite.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { backupSqlite, SqliteEventStore } from '../src/index.js';
import { TempStores } from './temp-store.js';

const stores = new TempStores();
afterAll(() => stores.dispose());
const repository = join(import.meta.dirname, '../../../..');

const append = (store: SqliteEventStore, n: number) =>
  store.append('ledger-1', [{ eventId: randomUUID(), type: 'Happened', data: { n } }], {
    expectedRevision: n === 0 ? 'no_stream' : n - 1,
  });

describe('backupSqlite', () => {
  it('copies a consistent snapshot while a writer appends, and the copy opens as an event store', async () => {
    const store = stores.open({}, 'live.db');
    let n = 0;
    for (; n < 200; n++) await append(store, n);
    let writing = true;
    const writer = (async () => {
      while (writing) await append(store, n++);
    })();
    const result = await backupSqlite(stores.path('live.db'), stores.path('backup.db'));
    writing = false;
    await writer;
    // The writer appended while the backup ran.
    expect(n).toBeGreaterThan(200);
    expect(result.integrity).toBe('ok');
    expect(result.pages).toBeGreaterThan(1);

    const restored = SqliteEventStore.open(stores.path('backup.db'));
    try {
      const events = await restored.readStream('ledger-1');
      expect(events.length).toBeGreaterThanOrEqual(200);
      expect(events.length).toBeLessThanOrEqual(n);
      expect(events.map((e) => (e.data as { n: number }).n)).toEqual(events.map((_, i) => i));
    } finally {
      await restored.close();
    }
  });

  it('runs as `npm run sqlite:backup`, refusing to overwrite an existing file', async () => {
    const store = stores.open({}, 'cli.db');
    await append(store, 0);
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/platform/src/sqlite-backup.ts', ...args], {
        cwd: repository,
      }).then(
        ({ stdout }) => ({ code: 0, out: stdout }),
        (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
      );
    const first = await run(stores.path('cli.db'), stores.path('cli-backup.db'));
    expect(first).toMatchObject({ code: 0, out: expect.stringMatching(/pages, integrity ok\n$/) });
    const again = await run(stores.path('cli.db'), stores.path('cli-backup.db'));
    expect(again).toMatchObject({ code: 2, out: expect.stringMatching(/exists; give a new file name/) });
    expect((await run(stores.path('missing.db'), stores.path('x.db'))).code).toBe(2);
  });
});
