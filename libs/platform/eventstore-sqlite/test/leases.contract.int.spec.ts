import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
