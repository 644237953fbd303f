import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { describeMessageBusContract } from '@reelstream/testing';

// Short leases and polls: the suite stays fast where expiry or another process's write matters.
const tuning = { sessionTimeoutMs: 2_000, pollIntervalMs: 10 };

describeMessageBusContract(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bus-contract-'));
  const path = join(dir, 'bus.db');
  return {
    adapter: 'sqlite',
    url: `sqlite:${path}?sessionTimeoutMs=${tuning.sessionTimeoutMs}&pollIntervalMs=${tuning.pollIntervalMs}`,
    open: (options = {}) => SqliteMessageBus.open(path, { ...tuning, ...options }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}, 'sqlite');
