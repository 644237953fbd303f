import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { openMessageBus } from '@reelstream/platform-backends';
import { eventually } from '@reelstream/testing';
import { ConsumerRegistry } from './consumer-health.js';

describe('ConsumerRegistry', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("lists the groups of the process's consumers that are not taking messages (real SQLite bus, its heartbeat locked out)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'consumer-health-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'bus.db');
    const registry = new ConsumerRegistry();
    const bus = registry.track(
      await openMessageBus(`sqlite:${path}?sessionTimeoutMs=300&busyTimeoutMs=10&pollIntervalMs=10`),
    );
    cleanups.push(() => bus.close());
    const ledger = await bus.subscribe({
      groupId: 'bonus-ledger',
      topics: ['commands'],
      handler: async () => undefined,
    });
    const dispatcher = await bus.subscribe({
      groupId: 'wallet-dispatcher',
      topics: ['requests'],
      handler: async () => undefined,
    });
    await Promise.all([ledger.ready, dispatcher.ready]);
    expect(registry.unhealthy()).toEqual([]);

    const other = new Database(path);
    cleanups.push(() => {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    });
    other.exec('BEGIN IMMEDIATE');
    await eventually(
      () => expect(registry.unhealthy().sort()).toEqual(['bonus-ledger', 'wallet-dispatcher']),
      5_000,
      10,
    );
    other.exec('COMMIT');
    await eventually(() => expect(registry.unhealthy()).toEqual([]), 5_000, 10);

    // A stopped consumer is no longer the process's: it does not keep the process unready.
    await dispatcher.stop();
    expect(dispatcher.healthy).toBe(false);
    expect(registry.unhealthy()).toEqual([]);
  });
});
