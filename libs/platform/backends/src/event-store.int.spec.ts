import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from '@jest/globals';
import { openEventStore, parseSqliteEventStoreUrl } from './event-store.js';

const dir = mkdtempSync(join(tmpdir(), 'reelstream-backends-es-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openEventStore', () => {
  it('opens sqlite:<path>, creating the parent directory, with checkpoints in the same file', async () => {
    const path = join(dir, 'nested', 'deeper', 'events.db');
    const { store, checkpoints } = await openEventStore(`sqlite:${path}`);
    try {
      const { position } = await store.append('order-1', [{ type: 'OrderPlaced', data: { n: 1 } }], {
        expectedRevision: 'no_stream',
      });
      await checkpoints.store('projection', position);
      expect(await checkpoints.load('projection')).toBe(position);
    } finally {
      await store.close();
    }
    const file = new Database(path, { readonly: true });
    try {
      expect(file.prepare('SELECT count(*) FROM es_events').pluck().get()).toBe(1);
      expect(file.prepare('SELECT position FROM es_checkpoints WHERE name = ?').pluck().get('projection')).toBe('1');
    } finally {
      file.close();
    }
  });

  it('reads a relative path against the working directory, and tuning from the query', () => {
    expect(parseSqliteEventStoreUrl('sqlite:./data/reelstream.db')).toEqual({
      path: resolve('data/reelstream.db'),
      options: {},
    });
    expect(
      parseSqliteEventStoreUrl('sqlite:///var/lib/es.db?synchronous=NORMAL&busyTimeoutMs=100&pollIntervalMs=5'),
    ).toEqual({
      path: '/var/lib/es.db',
      options: { synchronous: 'NORMAL', busyTimeoutMs: 100, pollIntervalMs: 5 },
    });
  });

  it('refuses an empty path, unknown tuning and unsupported schemes with a clear message', async () => {
    expect(() => parseSqliteEventStoreUrl('sqlite:')).toThrow(/names no file/);
    expect(() => parseSqliteEventStoreUrl('sqlite:./x.db?synchronous=OFF')).toThrow(/EVENT_STORE_URL/);
    expect(() => parseSqliteEventStoreUrl('sqlite:./x.db?cacheSize=1')).toThrow(/EVENT_STORE_URL/);
    await expect(openEventStore('mysql://localhost/events')).rejects.toThrow(/unsupported EVENT_STORE_URL .*mysql:/);
  });
});
