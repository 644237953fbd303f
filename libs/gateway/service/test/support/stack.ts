/**
 * The gateway with the REAL bonus-ledger beside it (integration tests): both on one embedded
 * event store file and bus file in a temp dir, each with its own clients as if they were two
 * processes, sharing one manual clock.
 */
import { join } from 'node:path';
import { BonusLedgerClient, type BonusRequestData } from '@reelstream/bonus-client';
import type { BonusReply, BonusRequestType } from '@reelstream/contracts';
import { SqliteEventStore, SqliteLeaseStore } from '@reelstream/platform-eventstore-sqlite';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import type { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { catalogLookup } from '@reelstream/bonus-adapters';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { startBonusLedger, type BonusLedger } from '@reelstream/bonus-service';
import { startHarness, type Harness, type HarnessOptions } from './harness.js';

export interface Stack extends Harness {
  ledger: BonusLedger;
  ledgerBus: SqliteMessageBus;
  /** Sends a command or query to the ledger as another service would (the game-server's free spins, the expiry timer). */
  sendToLedger<Type extends BonusRequestType>(type: Type, data: BonusRequestData<Type>): Promise<BonusReply<Type>>;
  /** Stops the ledger (its consumer leaves the group); `startLedger` brings it back on the same files. */
  stopLedger(): Promise<void>;
  startLedger(): Promise<void>;
}

let commandCounter = 0;

export async function startStack(options: HarnessOptions = {}): Promise<Stack> {
  const harness = await startHarness(options);
  const ledgerStore = SqliteEventStore.open(harness.dbPath, { synchronous: 'NORMAL' });
  const ledgerBus = await harness.openBus('bonus-ledger-test');
  const catalog = catalogLookup(loadCatalogFile());
  const ids = new TimeOrderedIdGenerator(2);
  const launchLedger = () =>
    startBonusLedger(
      {
        store: ledgerStore,
        leases: new SqliteLeaseStore(ledgerStore.database),
        instanceId: 'bonus-ledger-test',
        bus: ledgerBus,
        clock: harness.clock,
        ids,
        operators: (operatorId) => harness.operators.get(operatorId),
        catalog,
        logger: harness.logger.child({ component: 'bonus-ledger' }),
      },
      { readModelFile: join(harness.dir, 'bonus-ledger-read-bonus-ledger-test.db'), healthPort: 0 },
    );
  let ledger = await launchLedger();
  let running = true;
  const otherService = new BonusLedgerClient({
    bus: harness.bus,
    clock: harness.clock,
    ids: new TimeOrderedIdGenerator(4),
    timeoutMs: 10_000,
  });
  const stack: Stack = {
    ...harness,
    get ledger() {
      return ledger;
    },
    ledgerBus,
    sendToLedger: (type, data) => otherService.call(type, data, `test-${++commandCounter}`),
    async stopLedger() {
      if (!running) return;
      running = false;
      await ledger.stop();
    },
    async startLedger() {
      if (running) return;
      ledger = await launchLedger();
      running = true;
    },
    async close() {
      if (running) await ledger.stop();
      running = false;
      await ledgerStore.close();
      await harness.close();
    },
  };
  return stack;
}
