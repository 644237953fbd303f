/**
 * `npm run test:image`: builds docker/Dockerfile and plays a bonus through the platform running as
 * containers of it, with Debian's podman (these machines have no Docker engine and cannot pull
 * from image registries). Phases, each timed:
 *   base   — the base image: debootstrap minbase + this machine's Node (scripts/image/base.ts),
 *            cached under ~/.cache/reelstream-image and reused;
 *   build  — `podman build --build-arg BASE_IMAGE=<base>` (layers cached: an unchanged
 *            package-lock reuses the npm ci layers);
 *   start  — sandbox, bonus-ledger, wallet-dispatcher, game-server and gateway as read-only,
 *            non-root containers, until every /readyz answers 200;
 *   play   — register → launch → 3 free spins → 1 paid spin, then the sandbox's ledger;
 *   remove — every container, always.
 * `--cold` makes the base again and builds without the layer cache (the CI's first run).
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { ensureBaseImage } from './image/base.js';
import { startPlatform, waitUntilReady, type Platform } from './image/containers.js';
import { playFreeSpinsThenPaid } from './image/play.js';
import { podman, podmanCommand, storageDriver } from './image/podman.js';
import { installed, NICE, run } from './image/run.js';

const REPOSITORY_ROOT = resolve(import.meta.dirname, '..');
const IMAGE_TAG = 'localhost/reelstream:test-image';
const REQUIRED = ['podman', 'debootstrap', 'runc'];

const timings: [phase: string, seconds: number][] = [];
async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  process.stdout.write(`test:image: ${name} …\n`);
  try {
    return await work();
  } finally {
    const seconds = (performance.now() - started) / 1000;
    timings.push([name, seconds]);
    process.stdout.write(`test:image: ${name} took ${seconds.toFixed(1)} s\n`);
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { cold: { type: 'boolean', default: false } } });
  const missing = [];
  for (const tool of REQUIRED) if (!(await installed(tool))) missing.push(tool);
  if (missing.length > 0) {
    process.stderr.write(
      `test:image needs ${missing.join(', ')}: apt-get install -y podman buildah debootstrap runc uidmap fuse-overlayfs slirp4netns\n`,
    );
    return 1;
  }
  const started = performance.now();
  process.stdout.write(`test:image: podman storage driver ${await storageDriver()}\n`);
  const base = await phase('base', () => ensureBaseImage({ rebuild: values.cold }));
  process.stdout.write(`test:image: base ${base.tag} (${base.source})\n`);
  await phase('build', async () => {
    await run(
      [
        ...NICE,
        ...podmanCommand([
          'build',
          '--layers',
          ...(values.cold ? ['--no-cache'] : []),
          '--network',
          'host',
          '--file',
          'docker/Dockerfile',
          '--build-arg',
          `BASE_IMAGE=${base.tag}`,
          '--tag',
          IMAGE_TAG,
          '.',
        ]),
      ],
      { inherit: true, cwd: REPOSITORY_ROOT },
    );
    // Untagged images (earlier builds, and the intermediate images that hold the npm ci layers)
    // are removed only once a week old: the store stays bounded, and a build reuses this week's
    // npm ci layers (a plain `podman image prune` would remove them, and every build would
    // install everything again).
    await podman(['image', 'prune', '--force', '--filter', 'until=168h'], { allowFailure: true });
  });
  const size = (await podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE_TAG])).stdout.trim();
  process.stdout.write(`test:image: ${IMAGE_TAG} is ${(Number(size) / 1024 / 1024).toFixed(0)} MiB\n`);

  let platform: Platform | undefined;
  const removeOnSignal = (signal: NodeJS.Signals) => {
    void (platform?.remove() ?? Promise.resolve()).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', removeOnSignal);
  process.once('SIGTERM', removeOnSignal);
  try {
    platform = await phase('start', async () => {
      const started = await startPlatform(IMAGE_TAG);
      platform = started;
      await waitUntilReady(started, 60_000);
      return started;
    });
    const ready = platform;
    const played = await phase('play', () => playFreeSpinsThenPaid(ready));
    process.stdout.write(
      `test:image: bonus ${played.issueId} for ${played.playerId}: ${played.transactions} wallet transactions, balance ${played.balanceMinor} minor units\n`,
    );
  } catch (error) {
    if (platform) process.stderr.write(`${await platform.logs()}\n`);
    throw error;
  } finally {
    const running = platform;
    if (running) await phase('remove', () => running.remove());
  }
  const total = (performance.now() - started) / 1000;
  process.stdout.write(
    `test:image: passed in ${total.toFixed(1)} s (${timings.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(', ')})\n`,
  );
  return 0;
}

process.exitCode = await main();
