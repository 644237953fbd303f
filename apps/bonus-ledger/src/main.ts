/**
 * bonus-ledger: wiring only (services.md). Telemetry first — its HTTP instrumentation patches
 * only modules loaded after it — then config, back ends, and the service.
 */
import { hostname } from 'node:os';
import { createLogger, initTelemetry, traceEventStore, traceMessageBus } from '@reelstream/telemetry';

const telemetry = initTelemetry({ serviceName: 'bonus-ledger' });
const logger = createLogger({ service: 'bonus-ledger' });

const { demoOperators, loadOperators, OperatorDirectory, parseEnv, resolveBackends } = await import('@reelstream/config');
const { openEventStore, openMessageBus } = await import('@reelstream/backends');
const { TimeOrderedIdGenerator } = await import('@reelstream/ids');
const { systemClock } = await import('@reelstream/ports');
const { ledgerEnv, loadCatalogFile, readModelPath, startBonusLedger } = await import('@reelstream/service-bonus-ledger');

try {
  const config = parseEnv(ledgerEnv);
  const backends = resolveBackends(config);
  const operators = new OperatorDirectory(loadOperators(process.env, () => demoOperators(`http://localhost:${config.SANDBOX_PORT}`)).operators);
  const catalog = loadCatalogFile(config.CATALOG_FILE);
  const instanceId = config.INSTANCE_ID ?? `bonus-ledger-${hostname()}-${process.pid}`;

  const { store, checkpoints } = await openEventStore(backends.eventStoreUrl);
  const bus = await openMessageBus(backends.busUrl, { instanceId });
  const ledger = await startBonusLedger(
    {
      store: traceEventStore(store),
      checkpoints,
      bus: traceMessageBus(bus, { system: backends.busUrl.startsWith('kafka:') ? 'kafka' : 'sqlite' }),
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(config.WORKER_ID ?? 0),
      features: (operatorId) => operators.get(operatorId)?.features,
      catalog,
      logger,
    },
    { readModelFile: readModelPath(config.DATA_DIR), healthPort: config.HEALTH_PORT, rebuildReadModel: config.READ_MODEL_REBUILD },
  );
  logger.info('bonus-ledger ready', { healthPort: ledger.healthPort, instanceId, eventStore: backends.eventStoreUrl, bus: backends.busUrl });

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info('bonus-ledger stopping', { signal });
    await ledger.stop();
    await bus.close();
    await store.close();
    await telemetry.shutdown();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      shutdown(signal).catch((error: unknown) => {
        logger.error('bonus-ledger did not stop cleanly', { error });
        process.exitCode = 1;
      });
    });
  }
} catch (error) {
  logger.error('bonus-ledger could not start', { error });
  await telemetry.shutdown();
  process.exitCode = 1;
}
