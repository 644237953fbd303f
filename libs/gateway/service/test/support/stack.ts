/**
 * The gateway with the REAL bonus-ledger beside it (integration tests): both on one embedded
 * event store file and bus file in a temp dir, each with its own clients as if they were two
 * processes, sharing one manual clock. What other processes decide on the same store in their own
 * process (the game-server's free spins, the ledger's expiry timer) is decided here with the bonus
 * application API on the ledger's store.
 */
import { join } from 'node:path';
import { BonusCommands, catalogLookup, FreeSpins, type ExpiryTarget } from '@reelstream/bonus-application';
import { SqliteEventStore, SqliteLeaseStore } from '@reelstream/platform-eventstore-sqlite';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import type { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { startBonusLedger, type BonusLedger } from '@reelstream/bonus-service';
import { startHarness, type Harness, type HarnessOptions } from './harness.js';

export interface Stack extends Harness {
  ledger: BonusLedger;
  ledgerBus: SqliteMessageBus;
  /** Free spins decided as the game-server decides them, in its own process (ADR 0006). */
  freeSpins: FreeSpins;
  /** What the ledger's expiry timer does at expireAt: true when the bonus call expired now. */
  expire(target: ExpiryTarget): Promise<boolean>;
  /** The registrations, expiry and cancel of the ledger's process, decided in it (the campaign worker's registrations). */
  ledgerCommands: BonusCommands;
  /** Stops the ledger (its consumer leaves the group); `startLedger` brings it back on the same files. */
  stopLedger(): Promise<void>;
  startLedger(): Promise<void>;
}

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
  const ledgerCommands = new BonusCommands({
    store: ledgerStore,
    clock: harness.clock,
    ids,
    catalog,
    operators: (operatorId) => harness.operators.get(operatorId),
    playerOf: async (operatorId, issueId) => (await ledger.readModel.byIssueId(operatorId, issueId))?.playerId,
  });
  const stack: Stack = {
    ...harness,
    get ledger() {
      return ledger;
    },
    ledgerBus,
    freeSpins: new FreeSpins({ store: ledgerStore, clock: harness.clock, ids: new TimeOrderedIdGenerator(4) }),
    expire: (target) => ledgerCommands.expireDue(target),
    ledgerCommands,
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
