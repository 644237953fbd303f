/**
 * wallet-dispatcher: wiring only. Telemetry first (its HTTP instrumentation patches modules loaded
 * after it), then config, back ends, the service; SIGINT/SIGTERM drain it and close the back ends.
 */
import { hostname } from 'node:os';
import { createLogger, initTelemetry } from '@reelstream/telemetry';

const telemetry = initTelemetry({ serviceName: 'wallet-dispatcher' });
const logger = createLogger({ service: 'wallet-dispatcher' });

async function main(): Promise<void> {
  const { dispatcherSettingsFromEnv, startWalletDispatcher } = await import('@reelstream/service-wallet-dispatcher');
  const { openEventStore, openMessageBus } = await import('@reelstream/backends');
  const { TimeOrderedIdGenerator } = await import('@reelstream/ids');
  const { systemClock } = await import('@reelstream/ports');

  const settings = dispatcherSettingsFromEnv(process.env);
  const { store } = await openEventStore(settings.backends.eventStoreUrl);
  // A stable instance id: a restarted dispatcher takes its partitions back at once.
  const bus = await openMessageBus(settings.backends.busUrl, { instanceId: settings.env.INSTANCE_ID ?? `wallet-dispatcher-${hostname()}` });
  const dispatcher = await startWalletDispatcher(
    { store, bus, clock: systemClock, ids: new TimeOrderedIdGenerator(settings.env.WORKER_ID ?? 0), logger, operators: settings.operators },
    settings.config,
  );
  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info('shutting down', { signal });
    void (async () => {
      try {
        await dispatcher.stop();
        await bus.close();
        await store.close();
      } catch (error) {
        logger.error('shutdown failed', { error });
        process.exitCode = 1;
      } finally {
        await telemetry.shutdown();
      }
    })();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  await dispatcher.ready;
  logger.info('wallet dispatcher ready', { healthPort: dispatcher.healthPort, operators: settings.operatorsSource, eventStore: settings.backends.eventStoreUrl, bus: settings.backends.busUrl });
}

main().catch(async (error: unknown) => {
  logger.error('wallet dispatcher failed to start', { error });
  process.exitCode = 1;
  await telemetry.shutdown();
});
