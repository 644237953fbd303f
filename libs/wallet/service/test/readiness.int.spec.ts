/**
 * `/readyz` follows the consumers' health: a consumer that cannot take requests (here the SQLite
 * bus's, whose heartbeat cannot renew its leases while another process holds the write lock) makes
 * the process not ready until it works again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import { parseOperatorsConfig } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { createLogger } from '@reelstream/platform-telemetry';
import { startWalletDispatcher, type WalletDispatcher } from '../src/index.js';

const operators = new OperatorDirectory(
  parseOperatorsConfig([
    {
      id: 'ready',
      name: 'Ready',
      apiToken: 'ready-api-token-0123456789',
      callbackUrl: 'http://127.0.0.1:9/',
      signingSecret: 'ready-signing-secret-0123456789',
      currency: 'EUR',
    },
  ]),
);

describe('wallet dispatcher readiness', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('answers 503 while a consumer is unhealthy and 200 once it is healthy again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dispatcher-ready-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { store }: { store: EventStore } = await openEventStore(`sqlite:${join(dir, 'events.db')}`);
    cleanups.push(() => store.close());
    const busPath = join(dir, 'bus.db');
    const bus: MessageBus = await openMessageBus(
      `sqlite:${busPath}?sessionTimeoutMs=300&busyTimeoutMs=10&pollIntervalMs=10`,
      { instanceId: 'ready-dispatcher' },
    );
    cleanups.push(() => bus.close());
    const dispatcher: WalletDispatcher = await startWalletDispatcher(
      {
        store,
        bus,
        clock: systemClock,
        ids: new TimeOrderedIdGenerator(9),
        logger: createLogger({ service: 'ready', level: 'silent' }),
        operators,
      },
      { healthPort: 0, healthHost: '127.0.0.1', maxSockets: 4 },
    );
    cleanups.push(() => dispatcher.stop());
    await dispatcher.ready;
    const readyz = async () => {
      const response = await fetch(`http://127.0.0.1:${dispatcher.healthPort}/readyz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', consumers: 'joined' } });

    const other = new Database(busPath);
    cleanups.push(() => {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    });
    other.exec('BEGIN IMMEDIATE');
    await eventually(
      async () =>
        expect(await readyz()).toEqual({ status: 503, body: { status: 'not ready', consumers: 'rejoining' } }),
      5_000,
    );
    other.exec('COMMIT');
    await eventually(async () => expect((await readyz()).status).toBe(200), 5_000);
  });
});
