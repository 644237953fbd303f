/**
 * The platform the e2e scenario plays on (scenario.ts): every service in this process on the
 * embedded back ends, sharing one SQLite data file, the operator sandbox as both operators' wallet.
 */
import { join } from 'node:path';
import { OperatorDirectory } from '@reelstream/platform-config';
import { parseOperatorsConfig, parseStoredEvent } from '@reelstream/contracts';
import { SqliteEventStore, SqliteLeaseStore } from '@reelstream/platform-eventstore-sqlite';
import { createSeededRng } from '@reelstream/game-domain';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { systemClock } from '@reelstream/platform-ports';
import { catalogLookup } from '@reelstream/bonus-application';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { readModelPath, startBonusLedger } from '@reelstream/bonus-service';
import { startGameServer } from '@reelstream/game-service';
import { startGateway } from '@reelstream/gateway-service';
import { startOperatorSandbox } from '@reelstream/sandbox-service';
import { startWalletDispatcher } from '@reelstream/wallet-service';
import { createLogger } from '@reelstream/platform-telemetry';
import { eventually } from '@reelstream/testing';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

export interface ScenarioOperator {
  readonly id: string;
  readonly token: string;
  readonly currency: string;
  readonly timeZone: string;
}

export const SCENARIO_OPERATORS: readonly ScenarioOperator[] = [
  { id: 'casino-eu', token: 'casino-eu-api-token-0123456789', currency: 'EUR', timeZone: 'Europe/Berlin' },
  { id: 'casino-kr', token: 'casino-kr-api-token-0123456789', currency: 'KRW', timeZone: 'Asia/Seoul' },
];

export async function call(method: string, url: string, token: string | undefined, json?: unknown) {
  const response = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller reads the fields it needs
  return { status: response.status, body: (await response.json()) as any };
}

/** The operators' configuration as written in OPERATORS_JSON (the CLI reads their time zones: `--operators`). */
export function operatorsInput(sandboxUrl: string) {
  return SCENARIO_OPERATORS.map((operator) => ({
    id: operator.id,
    name: operator.id,
    apiToken: operator.token,
    callbackUrl: `${sandboxUrl}/wallet/${operator.id}`,
    signingSecret: `${operator.id}-signing-secret-000`,
    currency: operator.currency,
    timeZone: operator.timeZone,
  }));
}

/** The platform of the scenario, started; `stop()` closes every part and leaves the files. */
export async function startStack(dataDir: string) {
  const lines: string[] = [];
  const logger = createLogger({ service: 'scenario', level: 'warn', destination: { write: (l) => lines.push(l) } });
  const file = join(dataDir, 'reelstream.db');
  const store = SqliteEventStore.open(file, { synchronous: 'NORMAL' });
  const buses: SqliteMessageBus[] = [];
  const bus = async (instanceId: string) => {
    const opened = await SqliteMessageBus.open(file, { instanceId, synchronous: 'NORMAL', partitions: 4 });
    buses.push(opened);
    return opened;
  };
  const late: { directory?: OperatorDirectory } = {};
  const sandbox = await startOperatorSandbox(
    { operators: { get: (id) => late.directory?.get(id) }, logger },
    {
      port: 0,
      host: '127.0.0.1',
      databasePath: join(dataDir, 'sandbox.db'),
      autoCreateBalance: undefined,
      synchronous: 'NORMAL',
      adminToken: undefined,
      latencyMs: 0,
    },
  );
  const directory = new OperatorDirectory(parseOperatorsConfig(operatorsInput(sandbox.url)));
  late.directory = directory;
  const leases = new SqliteLeaseStore(store.database);
  const ledger = await startBonusLedger(
    {
      store,
      leases,
      instanceId: 'bonus-ledger',
      bus: await bus('bonus-ledger'),
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(1),
      operators: (id) => directory.get(id),
      catalog: catalogLookup(loadCatalogFile()),
      logger,
    },
    { readModelFile: readModelPath(dataDir, 'bonus-ledger'), healthPort: 0 },
  );
  const dispatcher = await startWalletDispatcher(
    {
      store,
      bus: await bus('wallet-dispatcher'),
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(2),
      logger,
      operators: directory,
    },
    { healthPort: 0, healthHost: '127.0.0.1', maxSockets: 16 },
  );
  await dispatcher.ready;
  const game = await startGameServer(
    {
      store,
      leases,
      instanceId: 'game-server',
      bus: await bus('game-server'),
      catalog: loadCatalogFile(),
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(3),
      logger,
      operators: directory,
      rng: createSeededRng('reelstream-cli scenario'),
    },
    {
      port: 0,
      host: '127.0.0.1',
      walletTimeoutMs: 5_000,
      resolveAfterMs: 15_000,
      resolveIntervalMs: 100,
      demoBalance: 1_000,
    },
  );
  const gateway = await startGateway(
    {
      bus: await bus('gateway'),
      store,
      operators: directory,
      catalog: loadCatalogFile(),
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(4),
      logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
    },
    {
      port: 0,
      host: '127.0.0.1',
      launchBaseUrl: game.url,
      sessionTtlMs: 4 * 3_600_000,
      ledgerTimeoutMs: 5_000,
      rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
      bodyLimitBytes: 32 * 1024,
    },
  );
  return {
    store,
    sandbox,
    gatewayUrl: gateway.url,
    gameUrl: game.url,
    logs: lines,
    async stop() {
      await gateway.stop(1_000);
      await game.stop(1_000);
      await dispatcher.stop();
      await ledger.stop();
      await sandbox.stop();
      for (const opened of buses) await opened.close();
      await store.close();
    },
  };
}
export type Stack = Awaited<ReturnType<typeof startStack>>;

/** Waits until every wallet transaction and cancel in the log has its outcome: nothing is still in flight. */
export async function quiesce(stack: Stack): Promise<void> {
  await eventually(async () => {
    const open = new Set<string>();
    for (const recorded of await stack.store.readAll({ filter: { streamPrefixes: ['walletTx-'] } })) {
      const event = parseStoredEvent(recorded);
      const key = recorded.streamId;
      if (event.type === 'WalletRequested') open.add(`${key}:tx`);
      if (
        event.type === 'WalletSucceeded' ||
        event.type === 'WinDeadLettered' ||
        (event.type === 'WalletFailed' && event.data.final)
      )
        open.delete(`${key}:tx`);
      if (event.type === 'CancelRequested') open.add(`${key}:cancel`);
      if (event.type === 'CancelSucceeded') open.delete(`${key}:cancel`);
    }
    if (open.size > 0) throw new Error(`still in flight: ${[...open].join(', ')}`);
  }, 20_000);
}
