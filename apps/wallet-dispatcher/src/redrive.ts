/**
 * `npm run wallet:redrive -- [--list | --dry-run] [--operator X] [--since T]`: wiring only (see
 * runRedrive). Exit code 0 when every dead-lettered win was applied (or, with --list or
 * --dry-run, when the log was read), 1 otherwise, 2 on bad arguments or configuration.
 */
import { hostname } from 'node:os';

async function main(): Promise<number> {
  const { parseEnv, platformEnvShape, resolveBackends } = await import('@reelstream/platform-config');
  const { openEventStore, openMessageBus } = await import('@reelstream/platform-backends');
  const { systemClock } = await import('@reelstream/platform-ports');
  const { dryRunRedrive, listDeadLetters, parseRedriveArguments, runRedrive, REDRIVE_USAGE } =
    await import('@reelstream/wallet-service');
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
  const out = (line: string) => void process.stdout.write(`${line}\n`);
  if (args.mode !== 'redrive') {
    try {
      await (args.mode === 'list' ? listDeadLetters : dryRunRedrive)(store, args, out);
      return 0;
    } finally {
      await store.close();
    }
  }
  const bus = await openMessageBus(backends.busUrl, { instanceId: `wallet-redrive-${hostname()}-${process.pid}` });
  try {
    const summary = await runRedrive({ store, bus, clock: systemClock }, args, out);
    return summary.applied === summary.total ? 0 : 1;
  } finally {
    await bus.close();
    await store.close();
  }
}

process.exitCode = await main();
