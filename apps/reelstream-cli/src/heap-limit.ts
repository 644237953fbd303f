/**
 * The CLI's memory bound. A replay keeps a bounded live set (the rounds and transactions of a
 * sliding horizon, about 150 MB at 5M events), but V8 sizes its heap against its own limit (a
 * quarter of the machine's memory) and lets garbage pile up toward it: 850 MB resident for those
 * 150 MB. With a heap limit of 256 MB the same replay peaks at about 425 MB resident, for about
 * 15 % of its speed. So the CLI runs its command in a child with `--max-old-space-size` unless the
 * caller chose a limit of their own: REELSTREAM_HEAP_MB (a number of MB, or `off` for V8's
 * default), or --max-old-space-size in the node options.
 */
import { spawnSync } from 'node:child_process';
import { constants as osConstants } from 'node:os';

export const DEFAULT_HEAP_MB = 256;
const HEAP_FLAG = '--max-old-space-size';
/** Set in the child, so that it runs the command instead of starting another child. */
const CHILD_MARK = 'REELSTREAM_HEAP_LIMITED';

/** The heap limit to start the command's child with, in MB; undefined to run in this process. */
export function heapLimitOf(execArgv: readonly string[], env: NodeJS.ProcessEnv): number | undefined {
  if (env[CHILD_MARK] === '1') return undefined;
  if (execArgv.some((arg) => arg.startsWith(HEAP_FLAG)) || (env['NODE_OPTIONS'] ?? '').includes(HEAP_FLAG))
    return undefined;
  const chosen = env['REELSTREAM_HEAP_MB']?.trim();
  if (chosen === undefined || chosen === '') return DEFAULT_HEAP_MB;
  if (chosen === 'off') return undefined;
  const mb = Number(chosen);
  if (!Number.isSafeInteger(mb) || mb < 64)
    throw new RangeError(`REELSTREAM_HEAP_MB must be a whole number of MB of at least 64, or off (got "${chosen}")`);
  return mb;
}

/** What a child that ended this way means for the user: undefined when it ended on its own. */
export function heapExhaustion(status: number | null, signal: NodeJS.Signals | null, mb: number): string | undefined {
  // V8 ends a process that reached its heap limit with abort(): SIGABRT, or 134 through a shell.
  if (signal !== 'SIGABRT' && status !== 134) return undefined;
  return (
    `reelstream: the command needed more than its heap limit of ${mb} MB. Run it again with ` +
    `REELSTREAM_HEAP_MB=${mb * 4} (or REELSTREAM_HEAP_MB=off), or narrow it with --from/--to.`
  );
}

/**
 * Runs this same command line in a child with the heap limit, and returns its exit code; or
 * undefined when this process is to run the command itself.
 */
export function runWithHeapLimit(): number | undefined {
  let mb: number | undefined;
  try {
    mb = heapLimitOf(process.execArgv, process.env);
  } catch (error) {
    process.stderr.write(`reelstream: ${(error as Error).message}\n`);
    return 2;
  }
  if (mb === undefined) return undefined;
  const child = spawnSync(process.execPath, [`${HEAP_FLAG}=${mb}`, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [CHILD_MARK]: '1' },
  });
  if (child.error) throw child.error;
  const exhausted = heapExhaustion(child.status, child.signal, mb);
  if (exhausted) {
    process.stderr.write(`${exhausted}\n`);
    return 3;
  }
  // Ended by another signal (Ctrl-C): the shell's convention, 128 + its number.
  return child.status ?? 128 + (child.signal ? osConstants.signals[child.signal] : 0);
}
