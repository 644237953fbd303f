import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { describeLeaseContract } from '@reelstream/testing';
import { SqliteEventStore, SqliteLeaseStore } from '../src/index.js';

describeLeaseContract(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reelstream-lease-contract-'));
  const path = join(dir, 'events.db');
  const opened: SqliteEventStore[] = [];
  return {
    adapter: 'sqlite',
    open: async () => {
      // One connection per replica, as two processes on one data dir have.
      const store = SqliteEventStore.open(path);
      opened.push(store);
      return new SqliteLeaseStore(store.database);
    },
    position: (n) => String(n),
    dispose: async () => {
      await Promise.all(opened.map((store) => store.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}, 'sqlite');

describe('SqliteLeaseStore durability', () => {
  it('commits lease changes and fenced checkpoint writes without their own fsync and gives the connection its FULL durability back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reelstream-lease-sync-'));
    const store = SqliteEventStore.open(join(dir, 'events.db'), { synchronous: 'FULL' });
    try {
      const leases = new SqliteLeaseStore(store.database);
      const lease = await leases.acquire('relay', 'replica-a', 5_000);
      if (!lease) throw new Error('expected a grant');
      await leases.renew(lease, 5_000);
      await leases.store('relay', '3', lease.token);
      await leases.release(lease);
      expect(store.database.pragma('synchronous', { simple: true })).toBe(2);
      expect(await leases.load('relay')).toBe('3');
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
