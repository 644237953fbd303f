/**
 * The game-server process: configuration → back ends → `startGameServer` → signals. Telemetry
 * starts first: its HTTP instrumentation only patches modules loaded after it, so everything that
 * loads express is imported dynamically below.
 */
import { hostname } from 'node:os';
import { createLogger, initTelemetry, traceEventStore, traceMessageBus } from '@reelstream/telemetry';

const telemetry = initTelemetry({ serviceName: 'game-server' });

const { gameServerConfigOf, loadCatalogFile, parseGameServerEnv, startGameServer } = await import('@reelstream/service-game-server');
const { demoOperators, loadOperators, OperatorDirectory, resolveBackends } = await import('@reelstream/config');
const { openEventStore, openMessageBus } = await import('@reelstream/backends');
const { TimeOrderedIdGenerator } = await import('@reelstream/ids');
const { systemClock } = await import('@reelstream/ports');

async function main(): Promise<void> {
  const env = parseGameServerEnv(process.env);
  const logger = createLogger({ service: 'game-server', level: env.LOG_LEVEL });
  const config = gameServerConfigOf(env);
  const catalog = loadCatalogFile(env.CATALOG_FILE);
  // Only the operators' allowed origins are read here (who may frame the game page).
  const operators = new OperatorDirectory(loadOperators(process.env, () => demoOperators('http://localhost:8082')).operators);
  const backends = resolveBackends(env);
  const { store, checkpoints } = await openEventStore(backends.eventStoreUrl);
  const bus = await openMessageBus(backends.busUrl, { instanceId: env.INSTANCE_ID ?? `game-server-${hostname()}-${process.pid}` });
  const server = await startGameServer(
    {
      store: traceEventStore(store),
      checkpoints,
      bus: traceMessageBus(bus, { system: backends.busUrl.startsWith('kafka:') ? 'kafka' : 'sqlite' }),
      catalog,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(env.WORKER_ID ?? 0),
      logger,
      operators,
    },
    config,
  );
  logger.info('game-server started', { url: server.url, eventStore: backends.eventStoreUrl, bus: backends.busUrl });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('game-server stopping', { signal });
    await server.stop();
    await bus.close();
    await store.close();
    await telemetry.shutdown();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      shutdown(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error('game-server did not stop cleanly', { error });
          process.exit(1);
        },
      );
    });
  }
}

main().catch(async (error: unknown) => {
  process.stderr.write(`game-server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  await telemetry.shutdown();
  process.exit(1);
});
