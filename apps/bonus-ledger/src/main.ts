/** The bonus-ledger process: wiring only; the life cycle is `runService`'s. */
import { openLeaseHolderDeps, runService } from '@reelstream/platform-runtime';

await runService('bonus-ledger', async (runtime) => {
  const { ledgerEnv, readModelPath, startBonusLedger } = await import('@reelstream/bonus-service');
  const { catalogLookup } = await import('@reelstream/bonus-application');
  const { loadCatalogFile } = await import('@reelstream/game-adapters');
  const { demoOperators, loadOperators, OperatorDirectory, resolveBackends } =
    await import('@reelstream/platform-config');

  const env = runtime.parseEnv(ledgerEnv);
  // Only the operators' registration policy is read here (D3 features, allowed currencies, limits).
  const operators = new OperatorDirectory(
    loadOperators(runtime.env, () => demoOperators(`http://localhost:${env.SANDBOX_PORT}`)).operators,
  );
  const catalog = catalogLookup(loadCatalogFile(env.CATALOG_FILE));
  const backends = resolveBackends(env);
  const ledger = await startBonusLedger(
    {
      ...(await openLeaseHolderDeps(runtime, backends)),
      operators: (operatorId) => operators.get(operatorId),
      catalog,
    },
    {
      readModelFile: readModelPath(env.READ_MODEL_DIR ?? env.DATA_DIR, runtime.identity.instanceId),
      leaseTtlMs: env.LEASE_TTL_MS,
      relayShards: env.BONUS_RELAY_SHARDS,
      healthPort: env.HEALTH_PORT,
      rebuildReadModel: env.READ_MODEL_REBUILD,
    },
  );
  runtime.onStop('bonus-ledger', () => ledger.stop());
  return { healthPort: ledger.healthPort, eventStore: backends.eventStoreUrl, bus: backends.busUrl };
});
