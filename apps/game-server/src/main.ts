/** The game-server process (launch host): wiring only; the life cycle is `runService`'s. */
import { openLeaseHolderDeps, runService } from '@reelstream/platform-runtime';

await runService('game-server', async (runtime) => {
  // Loaded after telemetry started (runService): express must be patched on load.
  const { gameServerConfigOf, gameServerEnv, startGameServer } = await import('@reelstream/game-service');
  const { loadCatalogFile } = await import('@reelstream/game-adapters');
  const { demoOperators, loadOperators, OperatorDirectory, resolveBackends } =
    await import('@reelstream/platform-config');

  const env = runtime.parseEnv(gameServerEnv);
  // Only the operators' allowed origins are read here (who may frame the game page).
  const operators = new OperatorDirectory(
    loadOperators(runtime.env, () => demoOperators('http://localhost:8082')).operators,
  );
  const catalog = loadCatalogFile(env.CATALOG_FILE);
  const backends = resolveBackends(env);
  const server = await startGameServer(
    { ...(await openLeaseHolderDeps(runtime, backends)), catalog, operators },
    gameServerConfigOf(env),
  );
  runtime.onStop('game-server', () => server.stop());
  return { url: server.url, eventStore: backends.eventStoreUrl, bus: backends.busUrl };
});
