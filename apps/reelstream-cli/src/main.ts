/** `reelstream …` (the package bin) and `npm run reelstream -- …`: wiring only, see run-cli.ts. */
import { runWithHeapLimit } from './heap-limit.js';
import { runCli } from './run-cli.js';

process.exitCode =
  runWithHeapLimit() ??
  (await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  }));
