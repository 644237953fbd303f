/**
 * `/readyz` follows the command consumer's health: while it cannot take commands (here the SQLite
 * bus's, whose heartbeat cannot renew its leases while another process holds the write lock) the
 * ledger is not ready, and it is again once the consumer works. And a replica is not ready until
 * its own read model caught up with the log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { OperatorDirectory, demoOperators } from '@reelstream/platform-config';
import { parseOperatorsConfig } from '@reelstream/contracts';
import { systemClock, type EventStore, type Subscription } from '@reelstream/platform-ports';
import { createLogger } from '@reelstream/platform-telemetry';
import { eventually } from '@reelstream/testing';
import { catalogLookup } from '@reelstream/bonus-application';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { readModelPath, startBonusLedger } from '../src/index.js';
import { accepted, InProcessBonus, registration } from './bonus-requests.js';

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

  it('answers 503 until its own read model caught up with the log stored before it started', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-ready-catch-up-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const url = `sqlite:${join(dir, 'events.db')}`;
    const { store, leases } = await openEventStore(url);
    cleanups.push(() => store.close());
    const operators = new OperatorDirectory(parseOperatorsConfig(demoOperators('http://localhost:1')));
    const start = async (instanceId: string, ledgerStore: EventStore) => {
      const bus = await openMessageBus(url, { instanceId });
      const ledger = await startBonusLedger(
        {
          store: ledgerStore,
          leases,
          instanceId,
          bus,
          clock: systemClock,
          ids: new TimeOrderedIdGenerator(12),
          operators: (operatorId) => operators.get(operatorId),
          catalog: catalogLookup(loadCatalogFile()),
          logger: createLogger({ service: instanceId, level: 'silent' }),
        },
        { readModelFile: readModelPath(dir, instanceId), healthPort: 0 },
      );
      return { ledger, stop: async () => (await ledger.stop(), await bus.close()) };
    };

    // A first replica stores a bonus call, then stops.
    const first = await start('ledger-first', store);
    accepted(
      await new InProcessBonus(store, (operatorId) => operators.get(operatorId)).register(
        registration({ platformId: 'ready-1', playerId: 'ready_player' }),
      ),
    );
    await first.stop();

    // A new replica, whose read model starts empty, is held before its subscriptions deliver anything.
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const second = await start('ledger-second', heldSubscriptions(store, opened));
    cleanups.push(() => second.stop());
    const readyz = async () => (await fetch(`http://127.0.0.1:${second.ledger.healthPort}/readyz`)).status;
    expect(await readyz()).toBe(503);
    // A fixed wait on purpose: the replica must stay unready for it while its subscriptions are held.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await readyz()).toBe(503);
    open();
    await eventually(async () => expect(await readyz()).toBe(200), 10_000);
    expect(second.ledger.readModel.allRecords().map((record) => record.platformId)).toEqual(['ready-1']);
  });
});

/** The same store, each subscription delivering nothing until `opened` resolves. */
function heldSubscriptions(store: EventStore, opened: Promise<void>): EventStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'subscribeToAll')
        return (...args: Parameters<EventStore['subscribeToAll']>): Subscription => {
          const subscription = target.subscribeToAll(...args);
          const withCheckpoints = subscription.withCheckpoints.bind(subscription);
          return Object.assign(Object.create(subscription) as Subscription, {
            withCheckpoints: () => ({
              [Symbol.asyncIterator]: () => {
                const items = withCheckpoints()[Symbol.asyncIterator]();
                return { next: async () => (await opened, items.next()) };
              },
            }),
            close: () => subscription.close(),
          });
        };
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
