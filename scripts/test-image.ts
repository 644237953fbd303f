/**
 * `npm run test:image`: builds docker/Dockerfile and plays a bonus through the platform running as
 * containers of it, with Debian's podman (these machines have no Docker engine and cannot pull
 * from image registries). Phases, each timed:
 *   base   — the base images: debootstrap minbase + the project's Node 24 to build on, and the
 *            few libraries Node needs to run on (scripts/image/base.ts), cached under
 *            ~/.cache/reelstream-image and reused;
 *   build  — `podman build --build-arg BASE_IMAGE=<base> --build-arg RUNTIME_BASE_IMAGE=<runtime>`
 *            (layers cached: an unchanged package-lock reuses the npm ci layers); then what the
 *            image is: its size against MAX_IMAGE_MIB, the Node inside, its OCI labels and its
 *            bill of materials (CycloneDX, /app/sbom.cdx.json), printed;
 *   start  — sandbox, bonus-ledger, wallet-dispatcher, game-server and gateway as read-only,
 *            non-root containers, until every /readyz answers 200;
 *   play   — register → launch → 3 free spins → 1 paid spin, then the sandbox's ledger;
 *   remove — every container, always;
 *   sign, sbom, verify, pin — the supply chain (scripts/image/supply-chain.ts): the image pushed to a
 *            registry on 127.0.0.1 signed with `podman push --sign-by` (a throw-away GPG key), its
 *            bill of materials published beside it as a signed OCI artifact, both verified under a
 *            policy.json that requires the key (and an unsigned image, a copied signature and an
 *            unsigned bill of materials refused), and `npm run release:pin` on a copy of the
 *            production overlay proven to render exactly the pushed digest.
 * `--cold` makes the base again and builds without the layer cache (the CI's first run).
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { ensureBaseImages } from './image/base.js';
import { startPlatform, waitUntilReady, type Platform } from './image/containers.js';
import { playFreeSpinsThenPaid } from './image/play.js';
import { podman, podmanCommand, storageDriver } from './image/podman.js';
import { installed, NICE, run } from './image/run.js';
import { checkSupplyChain } from './image/supply-chain.js';

const REPOSITORY_ROOT = resolve(import.meta.dirname, '..');
const IMAGE_TAG = 'localhost/reelstream:test-image';
const REQUIRED = ['podman', 'debootstrap', 'runc', 'skopeo', 'docker-registry', 'gpg'];
/** The image holds only what runs: Node, the production dependencies, the bundles. */
const MAX_IMAGE_MIB = 250;

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

/**
 * What the image is: its size under the limit, the project's Node inside, its labels, and its bill of
 * materials, which it returns as the image holds it.
 */
async function inspectImage(nodeVersion: string, revision: string): Promise<string> {
  const size = Number((await podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE_TAG])).stdout.trim());
  const mib = size / 1024 / 1024;
  process.stdout.write(`test:image: ${IMAGE_TAG} is ${mib.toFixed(0)} MiB (limit ${MAX_IMAGE_MIB} MiB)\n`);
  if (!(mib <= MAX_IMAGE_MIB))
    throw new Error(`the image is ${mib.toFixed(0)} MiB, over its ${MAX_IMAGE_MIB} MiB limit`);
  const inImage = async (args: readonly string[]) =>
    (
      await podman([
        'run',
        '--rm',
        '--read-only',
        '--network',
        'host',
        '--ulimit',
        'nofile=1024:1024',
        '--ulimit',
        'nproc=1024:1024',
        IMAGE_TAG,
        'node',
        ...args,
      ])
    ).stdout;
  const node = (await inImage(['-p', 'process.version'])).trim();
  process.stdout.write(`test:image: node ${node} inside\n`);
  if (node !== `v${nodeVersion}`) throw new Error(`the image runs node ${node}, not the project's v${nodeVersion}`);
  const labels = JSON.parse(
    (await podman(['image', 'inspect', '--format', '{{json .Labels}}', IMAGE_TAG])).stdout,
  ) as Record<string, string>;
  process.stdout.write(
    `test:image: labels ${Object.entries(labels)
      .filter(([key]) => key.startsWith('org.opencontainers.image.'))
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')}\n`,
  );
  if (revision && labels['org.opencontainers.image.revision'] !== revision)
    throw new Error(`the image's revision label is ${labels['org.opencontainers.image.revision']}, not ${revision}`);
  const sbomText = await inImage([
    '-e',
    "process.stdout.write(require('node:fs').readFileSync('/app/sbom.cdx.json', 'utf8'))",
  ]);
  const sbom = JSON.parse(sbomText) as {
    bomFormat?: string;
    specVersion?: string;
    components?: { name: string; version?: string }[];
  };
  const components = sbom.components ?? [];
  if (sbom.bomFormat !== 'CycloneDX' || components.length === 0)
    throw new Error('the image carries no CycloneDX bill of materials at /app/sbom.cdx.json');
  process.stdout.write(
    `test:image: bill of materials (CycloneDX ${sbom.specVersion}, /app/sbom.cdx.json): ${components.length} components\n`,
  );
  for (const component of [...components].sort((a, b) => a.name.localeCompare(b.name)))
    process.stdout.write(`  ${component.name}@${component.version ?? '?'}\n`);
  return sbomText;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { cold: { type: 'boolean', default: false } } });
  const missing = [];
  for (const tool of REQUIRED) if (!(await installed(tool))) missing.push(tool);
  if (missing.length > 0) {
    process.stderr.write(
      `test:image needs ${missing.join(', ')}: apt-get install -y podman buildah debootstrap runc uidmap fuse-overlayfs slirp4netns skopeo docker-registry gnupg\n`,
    );
    return 1;
  }
  const started = performance.now();
  process.stdout.write(`test:image: podman storage driver ${await storageDriver()}\n`);
  const bases = await phase('base', () => ensureBaseImages({ rebuild: values.cold }));
  process.stdout.write(`test:image: base ${bases.build.tag} (${bases.build.source})\n`);
  process.stdout.write(`test:image: runtime base ${bases.runtime.tag} (${bases.runtime.source})\n`);
  const revision = (
    await run(['git', 'rev-parse', 'HEAD'], { cwd: REPOSITORY_ROOT, allowFailure: true })
  ).stdout.trim();
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
          `BASE_IMAGE=${bases.build.tag}`,
          '--build-arg',
          `RUNTIME_BASE_IMAGE=${bases.runtime.tag}`,
          '--build-arg',
          `VERSION=${process.env['npm_package_version'] ?? '0.0.0-dev'}`,
          '--build-arg',
          `REVISION=${revision || 'unknown'}`,
          // buildah reuses a cached LABEL step whose build argument changed: the labels that name
          // this build are also given here, where they are set on the image whatever the cache holds.
          '--label',
          `org.opencontainers.image.revision=${revision || 'unknown'}`,
          '--label',
          `org.opencontainers.image.version=${process.env['npm_package_version'] ?? '0.0.0-dev'}`,
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
  const sbom = await phase('inspect', () => inspectImage(bases.nodeVersion, revision));

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
  // Only an image that played its bonus is signed and published.
  await checkSupplyChain(phase, IMAGE_TAG, sbom);
  const total = (performance.now() - started) / 1000;
  process.stdout.write(
    `test:image: passed in ${total.toFixed(1)} s (${timings.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(', ')})\n`,
  );
  return 0;
}

process.exitCode = await main();
