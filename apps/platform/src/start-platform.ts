/**
 * The all-in-one platform (docs/architecture.md "Processes"): the operator sandbox, the bonus-ledger, the wallet
 * dispatcher, the game-server and the gateway in this process, on one event store and one bus
 * (by default one SQLite file under DATA_DIR), each through its own `start…` function with the
 * same configuration it reads when it runs alone. The demo operator calls the sandbox started
 * here, unless OPERATORS_JSON / OPERATORS_FILE name the operators.
 */
import { resolve } from 'node:path';
import { parseAmount } from '@reelstream/money';
import type { ReadyFields, ServiceRuntime } from '@reelstream/platform-runtime';
import { platformBanner } from './banner.js';
import { demoScript } from './demo-script.js';
import { localUrl, PLATFORM_DEFAULT_HOST } from './loopback-defaults.js';

// Long because: the all-in-one wiring of every service in start order, one call per step; the order (sandbox, ledger,
// dispatcher, game server, gateway) is the point.
export async function startPlatform(runtime: ServiceRuntime): Promise<ReadyFields> {
  // Loaded after telemetry started (runService): express must be patched on load.
  const { DEMO_OPERATOR, demoOperators, loadOperators, OperatorDirectory, resolveBackends } =
    await import('@reelstream/platform-config');
  const sandboxLib = await import('@reelstream/sandbox-service');
  const ledgerLib = await import('@reelstream/bonus-service');
  const dispatcherLib = await import('@reelstream/wallet-service');
  const gameLib = await import('@reelstream/game-service');
  const gatewayLib = await import('@reelstream/gateway-service');
  const { SqliteReconciliationReadModel } = await import('@reelstream/wallet-adapters');
  const { catalogLookup } = await import('@reelstream/bonus-application');
  const { loadCatalogFile } = await import('@reelstream/game-adapters');

  // Every variable of every service is checked before anything starts.
  const gatewayEnv = runtime.parseEnv(gatewayLib.gatewayEnv);
  const gameEnv = runtime.parseEnv(gameLib.gameServerEnv);
  const ledgerEnv = runtime.parseEnv(ledgerLib.ledgerEnv);
  runtime.parseEnv(dispatcherLib.dispatcherEnv);
  const sandboxEnv = runtime.parseEnv(sandboxLib.sandboxEnv);
  const sandboxConfig = sandboxLib.sandboxConfigFromEnv(runtime.env).config;
  const dispatcherConfig = dispatcherLib.dispatcherSettingsFromEnv(runtime.env).config;
  const catalog = loadCatalogFile(gameEnv.CATALOG_FILE);
  // Configured operators are checked now too; the demo operator needs the sandbox's real URL first.
  loadOperators(runtime.env, () => demoOperators('http://localhost:8082'));
  const backends = resolveBackends(gatewayEnv);

  const directory: { operators?: InstanceType<typeof OperatorDirectory> } = {};
  const lookup = { get: (id: string) => directory.operators?.get(id) };
  const sandbox = await sandboxLib.startOperatorSandbox(
    { operators: lookup, logger: runtime.loggerFor('operator-sandbox') },
    sandboxConfig,
  );
  runtime.onStop('operator-sandbox', () => sandbox.stop());
  const loaded = loadOperators(runtime.env, () => demoOperators(sandbox.url));
  const operators = new OperatorDirectory(loaded.operators);
  directory.operators = operators;

  const { store, leases, bus, untraced, consumers } = await runtime.openBackends(backends);
  const { instanceId } = runtime.identity;

  const ledger = await ledgerLib.startBonusLedger(
    {
      store,
      leases,
      instanceId,
      bus,
      clock: runtime.clock,
      ids: runtime.ids,
      operators: (operatorId) => operators.get(operatorId),
      catalog: catalogLookup(catalog),
      logger: runtime.loggerFor('bonus-ledger'),
    },
    // One process, one health endpoint: the gateway's. The ledger's own goes on any free port of loopback.
    {
      readModelFile: ledgerLib.readModelPath(ledgerEnv.READ_MODEL_DIR ?? ledgerEnv.DATA_DIR, instanceId),
      leaseTtlMs: ledgerEnv.LEASE_TTL_MS,
      healthPort: 0,
      healthHost: PLATFORM_DEFAULT_HOST,
      rebuildReadModel: ledgerEnv.READ_MODEL_REBUILD,
    },
  );
  runtime.onStop('bonus-ledger', () => ledger.stop());

  const dispatcher = await dispatcherLib.startWalletDispatcher(
    {
      store: untraced.store,
      bus: untraced.bus,
      clock: runtime.clock,
      ids: runtime.ids,
      logger: runtime.loggerFor('wallet-dispatcher'),
      operators,
      leases,
      instanceId,
    },
    { ...dispatcherConfig, healthPort: 0, healthHost: PLATFORM_DEFAULT_HOST },
  );
  runtime.onStop('wallet-dispatcher', () => dispatcher.stop());
  await dispatcher.ready;

  const game = await gameLib.startGameServer(
    {
      store,
      leases,
      instanceId,
      bus,
      catalog,
      clock: runtime.clock,
      ids: runtime.ids,
      logger: runtime.loggerFor('game-server'),
      operators,
    },
    gameLib.gameServerConfigOf(gameEnv),
  );
  runtime.onStop('game-server', () => game.stop());

  const gatewayConfig = gatewayLib.gatewayConfigOf(gatewayEnv);
  // GAME_PORT=0 is only known now: launch URLs point at the port the game-server got.
  if (gatewayEnv.LAUNCH_BASE_URL === undefined) gatewayConfig.launchBaseUrl = localUrl(game.port, gameEnv.GAME_HOST);
  const gateway = await gatewayLib.startGateway(
    {
      bus,
      store,
      operators,
      catalog,
      clock: runtime.clock,
      ids: runtime.ids,
      logger: runtime.loggerFor('gateway'),
      reconciliationReadModels: SqliteReconciliationReadModel,
      consumers,
    },
    gatewayConfig,
  );
  runtime.onStop('gateway', () => gateway.stop());

  const gatewayUrl = localUrl(gateway.port, gatewayConfig.host);
  // The sandbox listens on loopback by default (SANDBOX_HOST): its own URL is the one that answers.
  const sandboxUrl = sandbox.url;
  const operator = loaded.operators[0];
  if (!operator) throw new Error('no operator is configured');
  const demo = demoScript(catalog, operator, runtime.clock.now(), `${gatewayUrl}/docs`);
  // The player of the printed commands has money before its first callback, even with SANDBOX_AUTO_CREATE_PLAYERS=false.
  sandbox.views.setBalance(
    operator.id,
    demo.playerId,
    operator.currency,
    parseAmount(sandboxEnv.SANDBOX_INITIAL_BALANCE, operator.currency),
  );
  const dataDir = resolve(gatewayEnv.DATA_DIR);
  runtime.onReady((print) =>
    print(
      platformBanner({
        gatewayUrl,
        gameUrl: gatewayConfig.launchBaseUrl,
        sandboxUrl,
        dataDir,
        eventStoreUrl: backends.eventStoreUrl,
        operator,
        apiToken: loaded.source === 'demo' ? DEMO_OPERATOR.apiToken : undefined,
        operatorsSource: loaded.source,
        openingBalance: sandboxEnv.SANDBOX_INITIAL_BALANCE,
        demo,
      }),
    ),
  );
  return {
    gatewayUrl,
    docsUrl: `${gatewayUrl}/docs`,
    gameUrl: gatewayConfig.launchBaseUrl,
    sandboxUrl,
    dataDir,
    eventStore: backends.eventStoreUrl,
    bus: backends.busUrl,
    operators: loaded.operators.map((entry) => entry.id),
    operatorsSource: loaded.source,
    ledgerHealthPort: ledger.healthPort,
    dispatcherHealthPort: dispatcher.healthPort,
  };
}
