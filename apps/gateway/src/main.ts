/**
 * The gateway process: configuration → back ends → `startGateway` → signals. Telemetry starts
 * first: its HTTP instrumentation only patches modules loaded after it, so everything that
 * loads express is imported dynamically below.
 */
import { createLogger, initTelemetry, traceEventStore, traceMessageBus } from '@reelstream/telemetry';

const telemetry = initTelemetry({ serviceName: 'gateway' });

const { gatewayConfigOf, loadCatalogFile, loadGatewayOperators, parseGatewayEnv, startGateway } = await import('@reelstream/service-gateway');
const { OperatorDirectory, resolveBackends } = await import('@reelstream/config');
const { openEventStore, openMessageBus } = await import('@reelstream/backends');
const { TimeOrderedIdGenerator } = await import('@reelstream/ids');
const { systemClock } = await import('@reelstream/ports');

async function main(): Promise<void> {
  const env = parseGatewayEnv(process.env);
  const logger = createLogger({ service: 'gateway', level: env.LOG_LEVEL });
  const config = gatewayConfigOf(env);
  const operators = loadGatewayOperators(process.env, env);
  const catalog = loadCatalogFile(env.CATALOG_FILE);
  const backends = resolveBackends(env);
  const { store } = await openEventStore(backends.eventStoreUrl);
  const bus = await openMessageBus(backends.busUrl, env.INSTANCE_ID === undefined ? {} : { instanceId: env.INSTANCE_ID });
  const gateway = await startGateway(
    {
      bus: traceMessageBus(bus, { system: backends.busUrl.startsWith('kafka:') ? 'kafka' : 'sqlite' }),
      store: traceEventStore(store),
      operators: new OperatorDirectory(operators.operators),
      catalog,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(env.WORKER_ID ?? 0),
      logger,
    },
    config,
  );
  logger.info('gateway started', { url: gateway.url, operators: operators.operators.map((operator) => operator.id), operatorsSource: operators.source, launchBaseUrl: config.launchBaseUrl });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('gateway stopping', { signal });
    await gateway.stop();
    await bus.close();
    await store.close();
    await telemetry.shutdown();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      shutdown(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error('gateway did not stop cleanly', { error });
          process.exit(1);
        },
      );
    });
  }
}

main().catch(async (error: unknown) => {
  process.stderr.write(`gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  await telemetry.shutdown();
  process.exit(1);
});
