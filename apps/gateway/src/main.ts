/** The gateway process (operator API v1): wiring only; the life cycle is `runService`'s. */
import { runService } from '@reelstream/platform-runtime';

await runService('gateway', async (runtime) => {
  // Loaded after telemetry started (runService): express must be patched on load.
  const { gatewayConfigOf, gatewayEnv, loadGatewayOperators, startGateway } =
    await import('@reelstream/gateway-service');
  const { loadCatalogFile } = await import('@reelstream/game-adapters');
  const { SqliteReconciliationReadModel } = await import('@reelstream/wallet-adapters');
  const { OperatorDirectory, resolveBackends } = await import('@reelstream/platform-config');

  const env = runtime.parseEnv(gatewayEnv);
  const operators = loadGatewayOperators(runtime.env, env);
  const catalog = loadCatalogFile(env.CATALOG_FILE);
  const config = gatewayConfigOf(env);
  const backends = resolveBackends(env);
  const { store, bus } = await runtime.openBackends(backends);
  const gateway = await startGateway(
    {
      bus,
      store,
      operators: new OperatorDirectory(operators.operators),
      catalog,
      clock: runtime.clock,
      ids: runtime.ids,
      logger: runtime.logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
    },
    config,
  );
  runtime.onStop('gateway', () => gateway.stop());
  return {
    url: gateway.url,
    launchBaseUrl: config.launchBaseUrl,
    operators: operators.operators.map((operator) => operator.id),
    operatorsSource: operators.source,
    eventStore: backends.eventStoreUrl,
    bus: backends.busUrl,
  };
});
