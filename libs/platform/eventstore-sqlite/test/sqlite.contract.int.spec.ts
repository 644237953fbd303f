import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEventStoreContract } from '@reelstream/testing';
import { SqliteCheckpointStore, SqliteEventStore } from '../src/index.js';

describeEventStoreContract(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reelstream-es-contract-'));
  const path = join(dir, 'events.db');
  return {
    adapter: 'sqlite',
    url: `sqlite:${path}`,
    open: async () => {
      const store = SqliteEventStore.open(path);
      return { store, checkpoints: new SqliteCheckpointStore(store.database) };
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}, 'sqlite');
