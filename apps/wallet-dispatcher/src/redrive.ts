/**
 * `npm run wallet:redrive -- [--operator X] [--since T]`: wiring only (see runRedrive). Exit code
 * 0 when every parked win was applied, 1 otherwise, 2 on bad arguments or configuration.
 */
import { hostname } from 'node:os';

async function main(): Promise<number> {
  const { parseEnv, platformEnvShape, resolveBackends } = await import('@reelstream/config');
  const { openEventStore, openMessageBus } = await import('@reelstream/backends');
  const { systemClock } = await import('@reelstream/ports');
  const { parseRedriveArguments, runRedrive, REDRIVE_USAGE } = await import('@reelstream/service-wallet-dispatcher');
  const { z } = await import('zod');
  let args;
  let backends;
  try {
    args = parseRedriveArguments(process.argv.slice(2), systemClock.now());
    backends = resolveBackends(parseEnv(z.object(platformEnvShape), process.env));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${REDRIVE_USAGE}\n`);
    return 2;
  }
  const { store } = await openEventStore(backends.eventStoreUrl);
  const bus = await openMessageBus(backends.busUrl, { instanceId: `wallet-redrive-${hostname()}-${process.pid}` });
  try {
    const summary = await runRedrive({ store, bus, clock: systemClock }, args, (line) => process.stdout.write(`${line}\n`));
    return summary.applied === summary.total ? 0 : 1;
  } finally {
    await bus.close();
    await store.close();
  }
}

process.exitCode = await main();
