// The image's entrypoint: the app (or tool) is the first argument, else REELSTREAM_APP; the rest
// of the arguments go to it. JavaScript rather than a shell script, because the runtime image
// has no shell: it imports the chosen bundle into this same process (so the app is PID 1's own
// code, and signals reach it as they would `node dist/apps/<app>/main.js`).
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const USAGE = `usage: IMAGE <app> [arguments…]   (or REELSTREAM_APP=<app>)
apps:  gateway | bonus-ledger | wallet-dispatcher | game-server | operator-sandbox | platform
tools: redrive (wallet re-drive) | kafka-topics | reelstream or reelstream-cli (the reelstream CLI)
or:    node <file> [arguments…]
`;

const BUNDLES = {
  gateway: 'apps/gateway/main.js',
  'bonus-ledger': 'apps/bonus-ledger/main.js',
  'wallet-dispatcher': 'apps/wallet-dispatcher/main.js',
  'game-server': 'apps/game-server/main.js',
  'operator-sandbox': 'apps/operator-sandbox/main.js',
  platform: 'apps/platform/main.js',
  'reelstream-cli': 'apps/reelstream-cli/main.js',
  reelstream: 'apps/reelstream-cli/main.js',
  redrive: 'apps/wallet-dispatcher/redrive.js',
  'kafka-topics': 'apps/platform/kafka-topics.js',
};

/**
 * What the arguments ask for: `{ run: file, args }` (a bundle, run in this process), `{ node:
 * args }` (any Node command line, in a child), the usage (`help`, exit 0), or a refusal
 * (exit 64, as sysexits' EX_USAGE). `distDir` is the bundles' folder (/app/dist in the image).
 */
export function entryFor(argv, env, distDir) {
  const [first, ...rest] = argv;
  const app = first ?? env.REELSTREAM_APP ?? '';
  const args = first === undefined ? [] : rest;
  if (app === '-h' || app === '--help' || app === 'help') return { usage: true, exitCode: 0 };
  if (app === '') return { usage: true, exitCode: 64 };
  if (app === 'node') return { node: args };
  const bundle = Object.hasOwn(BUNDLES, app) ? BUNDLES[app] : undefined;
  if (bundle === undefined) return { usage: true, exitCode: 64, error: `unknown app: ${app}` };
  return { run: join(distDir, bundle), args };
}

async function main() {
  const entry = entryFor(process.argv.slice(2), process.env, join(import.meta.dirname, 'dist'));
  if (entry.usage) {
    if (entry.error) process.stderr.write(`${entry.error}\n`);
    process.stderr.write(USAGE);
    process.exitCode = entry.exitCode;
    return;
  }
  if (entry.node) {
    // Node's own options (`node -e …`, `node --inspect file`) need a Node of their own.
    const child = spawn(process.execPath, entry.node, { stdio: 'inherit' });
    for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
    child.on(
      'exit',
      (code, signal) => (process.exitCode = code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : 1)),
    );
    return;
  }
  // The bundle sees itself as the script node was started with, as `node <bundle> …` would.
  const file = resolve(entry.run);
  process.argv = [process.argv[0], file, ...entry.args];
  await import(pathToFileURL(file).href);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
