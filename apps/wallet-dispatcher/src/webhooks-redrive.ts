/**
 * `npm run wallet:webhooks:redrive`: sends every bonus webhook parked on `bonus.webhooks.dlq` since
 * the last re-drive back to `bonus.webhooks`, where the running dispatcher delivers it again (same
 * eventId, same body), each recorded as re-driven in its `webhookLetter` stream (the operator API
 * then no longer lists it). Prints how many. Exit code 0, or 2 on bad configuration.
 */
import { hostname } from 'node:os';

async function main(): Promise<number> {
  const { parseEnv, platformEnvShape, resolveBackends } = await import('@reelstream/platform-config');
  const { openEventStore, openMessageBus } = await import('@reelstream/platform-backends');
  const { redriveParkedWebhooks } = await import('@reelstream/wallet-application');
  const { z } = await import('zod');
  let backends;
  try {
    backends = resolveBackends(parseEnv(z.object(platformEnvShape), process.env));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const { store } = await openEventStore(backends.eventStoreUrl);
  const bus = await openMessageBus(backends.busUrl, { instanceId: `webhook-redrive-${hostname()}-${process.pid}` });
  try {
    const count = await redriveParkedWebhooks(bus, { store });
    process.stdout.write(`${count} parked bonus webhook(s) sent back to bonus.webhooks\n`);
    return 0;
  } finally {
    await bus.close();
    await store.close();
  }
}

process.exitCode = await main();
