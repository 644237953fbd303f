/**
 * The base image `npm run test:image` builds docker/Dockerfile on (BASE_IMAGE), made here because
 * these machines cannot pull from image registries: Debian bookworm from `debootstrap
 * --variant=minbase` (Debian's mirror is reachable), plus this machine's Node binary, its npm and
 * its headers (node-gyp compiles better-sqlite3 against them, offline). The root filesystem is
 * kept as a tarball under ~/.cache/reelstream-image/<suite>-node<version>-<arch>-r<recipe> and
 * imported as localhost/reelstream-base:<same key>; a second run reuses the image, or the
 * tarball when the image store was emptied.
 */
import { createReadStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { imageExists, podman } from './podman.js';
import { NICE, run } from './run.js';

const DEBIAN_SUITE = 'bookworm';
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
/** Raise when what goes into the base changes, so a cached base is not reused. */
const RECIPE = 2;
/** Besides minbase: TLS roots for the npm registry (npm ci in the build stage). */
const EXTRA_PACKAGES = ['ca-certificates'];

export interface BaseImage {
  readonly tag: string;
  /** What was done: reused the image, imported the cached tarball, or made it with debootstrap. */
  readonly source: 'image' | 'tarball' | 'debootstrap';
}

function baseKey(): string {
  return `${DEBIAN_SUITE}-node${process.version.replace(/^v/, '')}-${process.arch}-r${RECIPE}`;
}

function cacheDir(): string {
  return join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'reelstream-image');
}

/** Node's install prefix: the binary is <prefix>/bin/node, npm <prefix>/lib/node_modules/npm. */
function nodePrefix(): string {
  return dirname(dirname(process.execPath));
}

/** The certificates this machine's npm trusts besides Node's own: its `cafile`, else NODE_EXTRA_CA_CERTS. */
async function hostNpmCafile(): Promise<string | undefined> {
  const { stdout } = await run(['npm', 'config', 'get', 'cafile'], { allowFailure: true });
  for (const path of [stdout.trim(), process.env['NODE_EXTRA_CA_CERTS'] ?? ''])
    if (path && path !== 'null' && path !== 'undefined' && existsSync(path)) return path;
  return undefined;
}

/** Node, npm and Node's headers into /usr/local of the root filesystem, as the official image has them. */
async function addNode(rootfs: string): Promise<void> {
  const prefix = nodePrefix();
  const local = join(rootfs, 'usr', 'local');
  await cp(process.execPath, join(local, 'bin', 'node'));
  await cp(join(prefix, 'lib', 'node_modules', 'npm'), join(local, 'lib', 'node_modules', 'npm'), {
    recursive: true,
    verbatimSymlinks: true,
  });
  await cp(join(prefix, 'include', 'node'), join(local, 'include', 'node'), { recursive: true });
  await symlink('../lib/node_modules/npm/bin/npm-cli.js', join(local, 'bin', 'npm'));
  await symlink('../lib/node_modules/npm/bin/npx-cli.js', join(local, 'bin', 'npx'));
  // npm's global config (<prefix>/etc/npmrc): node-gyp builds against the headers above, not a
  // download; npm trusts what this machine's npm trusts (its `cafile`: a TLS-inspecting proxy's
  // root may stand between the machine and the registry).
  const settings = ['nodedir=/usr/local', 'update-notifier=false'];
  await mkdir(join(local, 'etc'), { recursive: true });
  const cafile = await hostNpmCafile();
  if (cafile) {
    await cp(cafile, join(local, 'etc', 'npm-ca.crt'));
    settings.push('cafile=/usr/local/etc/npm-ca.crt');
  }
  await writeFile(join(local, 'etc', 'npmrc'), `${settings.join('\n')}\n`);
}

async function makeTarball(tarball: string): Promise<void> {
  const work = await mkdtemp(join(dirname(tarball), 'rootfs-'));
  const rootfs = join(work, 'rootfs');
  try {
    await run(
      [
        ...NICE,
        'debootstrap',
        '--variant=minbase',
        `--include=${EXTRA_PACKAGES.join(',')}`,
        DEBIAN_SUITE,
        rootfs,
        DEBIAN_MIRROR,
      ],
      { allowFailure: false },
    );
    // apt's downloaded packages are not part of the base.
    await run(['sh', '-c', `rm -rf '${rootfs}'/var/cache/apt/archives/*.deb '${rootfs}'/var/lib/apt/lists/*`]);
    await addNode(rootfs);
    const partial = `${tarball}.partial`;
    await run([...NICE, 'tar', '--numeric-owner', '-C', rootfs, '-cf', partial, '.']);
    await rename(partial, tarball);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The base image, made or reused; `rebuild` makes it from nothing (the cold measurement). */
export async function ensureBaseImage(options: { rebuild?: boolean } = {}): Promise<BaseImage> {
  const key = baseKey();
  const tag = `localhost/reelstream-base:${key}`;
  const directory = join(cacheDir(), key);
  const tarball = join(directory, 'rootfs.tar');
  if (options.rebuild) {
    await rm(directory, { recursive: true, force: true });
    await podman(['rmi', '--force', tag], { allowFailure: true });
  }
  if (await imageExists(tag)) return { tag, source: 'image' };
  const cached = existsSync(tarball);
  if (!cached) {
    await mkdir(directory, { recursive: true });
    await makeTarball(tarball);
  }
  await podman(
    [
      'import',
      '--change',
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--change',
      'CMD ["node"]',
      '-',
      tag,
    ],
    { input: createReadStream(tarball) },
  );
  return { tag, source: cached ? 'tarball' : 'debootstrap' };
}
