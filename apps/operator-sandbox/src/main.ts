/** The operator-sandbox process (a reference operator wallet): wiring only; the life cycle is `runService`'s. */
import { runService } from '@reelstream/platform-runtime';

await runService('operator-sandbox', async (runtime) => {
  // Loaded after telemetry started (runService): express must be patched on load.
  const { sandboxConfigFromEnv, sandboxEnv, startOperatorSandbox } = await import('@reelstream/sandbox-service');

  runtime.parseEnv(sandboxEnv); // through the runtime too: a port in use is then named by its variable
  const { config, operators, operatorsSource } = sandboxConfigFromEnv(runtime.env);
  const sandbox = await startOperatorSandbox({ operators, logger: runtime.logger }, config);
  runtime.onStop('operator-sandbox', () => sandbox.stop());
  return {
    url: sandbox.url,
    callbackUrls: operators.operators.map((operator) => `${sandbox.url}/wallet/${operator.id}`),
    operators: operatorsSource,
    database: config.databasePath,
  };
});
