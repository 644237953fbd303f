import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { eventually } from '@reelstream/testing';
import { openDatabase, type Db } from '../src/database.js';

describe('SqliteMessageBus consumer health', () => {
  let dir: string;
  let path: string;
  let other: Db;
  let bus: SqliteMessageBus | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bus-health-'));
    path = join(dir, 'bus.db');
    other = await openDatabase(path, { synchronous: 'FULL', busyTimeoutMs: 5_000 });
  });

  afterEach(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    await bus?.close();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is unhealthy while another process holds the write lock past its lease, healthy again once its heartbeat renews, and not after stop', async () => {
    const errors: unknown[] = [];
    bus = await SqliteMessageBus.open(path, {
      sessionTimeoutMs: 300,
      busyTimeoutMs: 10,
      pollIntervalMs: 10,
      onError: (error) => errors.push(error),
    });
    const consumer = await bus.subscribe({ groupId: 'health', topics: ['t'], handler: async () => undefined });
    await consumer.ready;
    expect(consumer.healthy).toBe(true);
    // Another process's long write transaction: every heartbeat fails with SQLITE_BUSY and the leases lapse.
    other.exec('BEGIN IMMEDIATE');
    await eventually(() => expect(consumer.healthy).toBe(false), 5_000, 10);
    expect(errors).toContainEqual(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    other.exec('COMMIT');
    await eventually(() => expect(consumer.healthy).toBe(true), 5_000, 10);
    await consumer.stop();
    expect(consumer.healthy).toBe(false);
  });
});
