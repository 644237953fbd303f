/**
 * The gateway and the REAL bonus-ledger of the benches, in this process on the embedded back ends
 * (SQLite event store and bus, synchronous=FULL, one temp file, as `npm start` runs them), for one
 * operator `bench` whose API token is `BENCH_TOKEN`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperatorDirectory } from '@reelstream/platform-config';
import { parseOperatorsConfig } from '@reelstream/contracts';
import { SqliteEventStore, SqliteLeaseStore } from '@reelstream/platform-eventstore-sqlite';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { systemClock } from '@reelstream/platform-ports';
import { catalogLookup } from '@reelstream/bonus-application';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { startBonusLedger } from '@reelstream/bonus-service';
import { startGateway } from '@reelstream/gateway-service';
import { createLogger } from '@reelstream/platform-telemetry';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

export const BENCH_TOKEN = 'bench-token-0123456789abcdef';

export interface BenchPlatform {
  readonly gateway: Awaited<ReturnType<typeof startGateway>>;
  /** The gateway's store: the whole event log (the ledger's store is the same file). */
  readonly store: SqliteEventStore;
  /** Stops both, closes the buses and stores and removes the temp file. */
  stop(): Promise<void>;
}

/** Starts the gateway (its rate limit as given) and the bonus-ledger; `name` names the temp dir and the log's service. */
export async function startBenchPlatform(
  name: string,
  rateLimit: { perSecond: number; burst: number },
): Promise<BenchPlatform> {
  const operators = parseOperatorsConfig([
    {
      id: 'bench',
      name: 'Bench Casino',
      apiToken: BENCH_TOKEN,
      callbackUrl: 'http://127.0.0.1:9/wallet/bench',
      signingSecret: 'bench-signing-secret-0123',
      currency: 'EUR',
    },
  ]);
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const dbPath = join(dir, 'reelstream.db');
  const logger = createLogger({ service: name, level: 'warn' });
  const gatewayStore = SqliteEventStore.open(dbPath, { synchronous: 'FULL' });
  const ledgerStore = SqliteEventStore.open(dbPath, { synchronous: 'FULL' });
  const gatewayBus = await SqliteMessageBus.open(dbPath, { instanceId: 'bench-gateway', synchronous: 'FULL' });
  const ledgerBus = await SqliteMessageBus.open(dbPath, { instanceId: 'bench-ledger', synchronous: 'FULL' });
  const directory = new OperatorDirectory(operators);
  const catalog = loadCatalogFile();
  const ledger = await startBonusLedger(
    {
      store: ledgerStore,
      leases: new SqliteLeaseStore(ledgerStore.database),
      instanceId: 'bench-ledger',
      bus: ledgerBus,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(2),
      operators: (id) => directory.get(id),
      catalog: catalogLookup(catalog),
      logger,
    },
    { readModelFile: join(dir, 'bonus-ledger-read-bench-ledger.db'), healthPort: 0 },
  );
  const gateway = await startGateway(
    {
      bus: gatewayBus,
      store: gatewayStore,
      operators: directory,
      catalog,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(1),
      logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
    },
    {
      port: 0,
      host: '127.0.0.1',
      launchBaseUrl: 'http://localhost:8081',
      sessionTtlMs: 4 * 3_600_000,
      ledgerTimeoutMs: 10_000,
      rateLimit,
      bodyLimitBytes: 32 * 1024,
    },
  );
  return {
    gateway,
    store: gatewayStore,
    async stop() {
      await gateway.stop(1_000);
      await ledger.stop();
      await Promise.all([gatewayBus.close(), ledgerBus.close()]);
      await Promise.all([gatewayStore.close(), ledgerStore.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
