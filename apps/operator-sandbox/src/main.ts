/** operator-sandbox: wiring only. Telemetry first, then config and the server; SIGINT/SIGTERM stop it. */
import { createLogger, initTelemetry } from '@reelstream/telemetry';

const telemetry = initTelemetry({ serviceName: 'operator-sandbox' });
const logger = createLogger({ service: 'operator-sandbox' });

async function main(): Promise<void> {
  const { sandboxConfigFromEnv, startOperatorSandbox } = await import('@reelstream/service-operator-sandbox');
  const { config, operators, operatorsSource } = sandboxConfigFromEnv(process.env);
  const sandbox = await startOperatorSandbox({ operators, logger }, config);
  const shutdown = (signal: string) => {
    logger.info('shutting down', { signal });
    void sandbox
      .stop()
      .catch((error: unknown) => {
        logger.error('shutdown failed', { error });
        process.exitCode = 1;
      })
      .finally(() => telemetry.shutdown());
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  logger.info('operator sandbox ready', { url: sandbox.url, callbackUrls: operators.operators.map((operator) => `${sandbox.url}/wallet/${operator.id}`), operators: operatorsSource });
}

main().catch(async (error: unknown) => {
  logger.error('operator sandbox failed to start', { error });
  process.exitCode = 1;
  await telemetry.shutdown();
});
