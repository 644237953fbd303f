/** The wallet-dispatcher process: wiring only; the life cycle is `runService`'s. */
import { runService } from '@reelstream/platform-runtime';

await runService('wallet-dispatcher', async (runtime) => {
  // Loaded after telemetry started (runService), as every service's library is (the operator POSTs go over undici,
  // which the HTTP instrumentation does not patch: the client makes its own spans).
  const { dispatcherEnv, dispatcherSettingsFromEnv, startWalletDispatcher } =
    await import('@reelstream/wallet-service');

  runtime.parseEnv(dispatcherEnv); // through the runtime too: a port in use is then named by its variable
  const settings = dispatcherSettingsFromEnv(runtime.env);
  const { untraced, leases } = await runtime.openBackends(settings.backends);
  // The dispatcher traces its own back ends: give it the bare ones.
  const dispatcher = await startWalletDispatcher(
    {
      store: untraced.store,
      bus: untraced.bus,
      clock: runtime.clock,
      ids: runtime.ids,
      logger: runtime.logger,
      operators: settings.operators,
      leases,
      instanceId: runtime.identity.instanceId,
    },
    settings.config,
  );
  runtime.onStop('wallet-dispatcher', () => dispatcher.stop());
  await dispatcher.ready;
  return {
    healthPort: dispatcher.healthPort,
    operators: settings.operatorsSource,
    eventStore: settings.backends.eventStoreUrl,
    bus: settings.backends.busUrl,
  };
});
