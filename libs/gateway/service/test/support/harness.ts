/**
 * A gateway on a free port over a real embedded event store and bus in a temp dir, with three
 * operators, the repository's catalog, a manual clock and a captured log. The ledger side is
 * the caller's: the stand-in (unit tests) or the real bonus-ledger (integration tests).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperatorDirectory } from '@reelstream/platform-config';
import { parseOperatorsConfig, type OperatorConfigInput } from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { ManualClock, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import { createLogger, type Logger } from '@reelstream/platform-telemetry';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { startGateway, type GatewayConfig, type RunningGateway } from '../../src/index.js';
import { HttpClient } from './http-client.js';
import { testOperators } from './operators.js';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

const START = '2026-05-01T00:00:00.000Z';

export interface Harness {
  readonly dir: string;
  readonly dbPath: string;
  readonly store: SqliteEventStore;
  /** The gateway's bus client. */
  readonly bus: SqliteMessageBus;
  readonly clock: ManualClock;
  readonly operators: OperatorDirectory;
  readonly logs: string[];
  readonly logger: Logger;
  readonly gateway: RunningGateway;
  readonly config: GatewayConfig;
  readonly http: HttpClient;
  /** A second bus client on the same file, for the ledger side. */
  openBus(instanceId: string): Promise<SqliteMessageBus>;
  /** Number of events in $all. */
  eventCount(): Promise<number>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  operators?: OperatorConfigInput[];
  config?: Partial<GatewayConfig>;
  /** What the gateway sees of the store and bus (e.g. wrapped by traceEventStore / traceMessageBus). */
  wrapStore?: (store: EventStore) => EventStore;
  wrapBus?: (bus: MessageBus) => MessageBus;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-test-'));
  const dbPath = join(dir, 'reelstream.db');
  // NORMAL: these tests measure behaviour, not durability, and fsyncs would dominate them.
  const store = SqliteEventStore.open(dbPath, { synchronous: 'NORMAL' });
  const bus = await SqliteMessageBus.open(dbPath, { instanceId: 'gateway-test', synchronous: 'NORMAL', partitions: 4 });
  const extraBuses: SqliteMessageBus[] = [];
  const clock = new ManualClock(START);
  const operators = new OperatorDirectory(parseOperatorsConfig(options.operators ?? testOperators));
  const logs: string[] = [];
  const logger = createLogger({
    service: 'gateway-test',
    level: 'debug',
    destination: { write: (line: string) => logs.push(line) },
  });
  const config: GatewayConfig = {
    port: 0,
    host: '127.0.0.1',
    launchBaseUrl: 'http://games.test:8081',
    sessionTtlMs: 4 * 3_600_000,
    ledgerTimeoutMs: 5_000,
    rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
    bodyLimitBytes: 32 * 1024,
    ...options.config,
  };
  const gateway = await startGateway(
    {
      bus: options.wrapBus?.(bus) ?? bus,
      store: options.wrapStore?.(store) ?? store,
      operators,
      catalog: loadCatalogFile(),
      clock,
      ids: new TimeOrderedIdGenerator(1),
      logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
    },
    config,
  );
  return {
    dir,
    dbPath,
    store,
    bus,
    clock,
    operators,
    logs,
    logger,
    gateway,
    config,
    http: new HttpClient(gateway.url),
    async openBus(instanceId) {
      const opened = await SqliteMessageBus.open(dbPath, { instanceId, synchronous: 'NORMAL', partitions: 4 });
      extraBuses.push(opened);
      return opened;
    },
    async eventCount() {
      return (await store.readAll({ maxCount: Number.MAX_SAFE_INTEGER })).length;
    },
    async close() {
      await gateway.stop(1_000);
      for (const extra of extraBuses) await extra.close();
      await bus.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The access-log entries (parsed) written so far. */
export function accessLogs(logs: readonly string[]): Record<string, unknown>[] {
  return logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry['msg'] === 'http request');
}
