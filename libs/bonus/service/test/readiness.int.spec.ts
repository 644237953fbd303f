/**
 * `/readyz` follows the command consumer's health: while it cannot take commands (here the SQLite
 * bus's, whose heartbeat cannot renew its leases while another process holds the write lock) the
 * ledger is not ready, and it is again once the consumer works.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { openEventStore, openMessageBus } from '@reelstream/backends';
import { TimeOrderedIdGenerator } from '@reelstream/ids';
import { systemClock } from '@reelstream/ports';
import { createLogger } from '@reelstream/telemetry';
import { eventually } from '@reelstream/testing';
import { catalogLookup } from '@reelstream/bonus-adapters';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { readModelPath, startBonusLedger } from '../src/index.js';

describe('bonus ledger readiness', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('answers 503 while its command consumer is unhealthy and 200 once it is healthy again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-ready-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { store, leases } = await openEventStore(`sqlite:${join(dir, 'events.db')}`);
    cleanups.push(() => store.close());
    const busPath = join(dir, 'bus.db');
    const bus = await openMessageBus(`sqlite:${busPath}?sessionTimeoutMs=300&busyTimeoutMs=10&pollIntervalMs=10`, {
      instanceId: 'ready-ledger',
    });
    cleanups.push(() => bus.close());
    const ledger = await startBonusLedger(
      {
        store,
        leases,
        instanceId: 'ready-ledger',
        bus,
        clock: systemClock,
        ids: new TimeOrderedIdGenerator(11),
        operators: () => undefined,
        catalog: catalogLookup(loadCatalogFile()),
        logger: createLogger({ service: 'ledger-ready', level: 'silent' }),
      },
      { readModelFile: readModelPath(dir, 'ready-ledger'), healthPort: 0 },
    );
    cleanups.push(() => ledger.stop());
    const readyz = async () => (await fetch(`http://127.0.0.1:${ledger.healthPort}/readyz`)).status;
    expect(await readyz()).toBe(200);

    const other = new Database(busPath);
    cleanups.push(() => {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    });
    other.exec('BEGIN IMMEDIATE');
    await eventually(async () => expect(await readyz()).toBe(503), 5_000);
    other.exec('COMMIT');
    await eventually(async () => expect(await readyz()).toBe(200), 5_000);
  });
});
