/**
 * An in-process bonus-ledger on the embedded back ends in a temp dir, a client on its own
 * bus connection (another instance, as the gateway would be), and the registrations and free
 * spins the gateway and the game-server decide in their own processes on the same store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMessageBus, type OpenedEventStore } from '@reelstream/platform-backends';
import { catalogLookup } from '@reelstream/bonus-application';
import { OperatorDirectory, demoOperators } from '@reelstream/platform-config';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { parseOperatorsConfig } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type Clock, type MessageBus } from '@reelstream/platform-ports';
import { createLogger } from '@reelstream/platform-telemetry';
import { ESDB_POSITIONS_SCHEME, openTestEventStore } from '@reelstream/testing';
import { readModelPath, startBonusLedger, type BonusLedger } from '../src/index.js';
import { BonusClient, InProcessBonus } from './bonus-requests.js';

export class LedgerHarness {
  /** Made in `open()`, so a suite that jest skips (filtered out) leaves no temp dir behind. */
  dir = '';
  url = '';
  backends!: OpenedEventStore;
  clientBus!: MessageBus;
  client!: BonusClient;
  bonus!: InProcessBonus;
  ledger: BonusLedger | undefined;
  private ledgerBus: MessageBus | undefined;
  private readonly operators = new OperatorDirectory(
    parseOperatorsConfig([
      ...demoOperators('http://localhost:1'),
      {
        ...demoOperators('http://localhost:1')[0],
        id: 'regular',
        apiToken: 'regular-api-token-0001',
        features: { regularBonusCall: true },
      },
      {
        ...demoOperators('http://localhost:1')[0],
        id: 'hooked',
        apiToken: 'hooked-api-token-0001',
        webhookUrl: 'http://localhost:1/hooks',
      },
    ]),
  );

  /** `esdbShapedPositions`: the event store hands out EventStoreDB-shaped positions (see @reelstream/testing). */
  async open(options: { esdbShapedPositions?: boolean } = {}): Promise<this> {
    this.dir = mkdtempSync(join(tmpdir(), 'bonus-ledger-'));
    const file = join(this.dir, 'reelstream.db');
    this.url = `sqlite:${file}`;
    this.backends = await openTestEventStore(
      options.esdbShapedPositions ? `${ESDB_POSITIONS_SCHEME}${file}` : this.url,
    );
    this.clientBus = await openMessageBus(this.url, { instanceId: `client-${process.pid}` });
    this.client = new BonusClient(this.clientBus);
    this.bonus = new InProcessBonus(this.backends.store, (operatorId) => this.operators.get(operatorId));
    return this;
  }

  async startLedger(clock: Clock = systemClock): Promise<BonusLedger> {
    this.ledgerBus = await openMessageBus(this.url, { instanceId: 'ledger-under-test' });
    this.ledger = await startBonusLedger(
      {
        store: this.backends.store,
        leases: this.backends.leases,
        instanceId: 'ledger-under-test',
        bus: this.ledgerBus,
        clock,
        ids: new TimeOrderedIdGenerator(3),
        operators: (operatorId) => this.operators.get(operatorId),
        catalog: catalogLookup(loadCatalogFile()),
        logger: createLogger({ service: 'bonus-ledger-test', level: 'silent' }),
      },
      { readModelFile: readModelPath(this.dir, 'ledger-under-test'), healthPort: 0 },
    );
    return this.ledger;
  }

  async stopLedger(): Promise<void> {
    await this.ledger?.stop();
    await this.ledgerBus?.close();
    this.ledger = undefined;
    this.ledgerBus = undefined;
  }

  async close(): Promise<void> {
    await this.stopLedger();
    await this.clientBus.close();
    await this.backends.store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
