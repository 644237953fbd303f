/**
 * The two base images `npm run test:image` builds docker/Dockerfile on, made here because these
 * machines cannot pull from image registries:
 * - BASE_IMAGE (the build stages): Debian bookworm from `debootstrap --variant=minbase` (Debian's
 *   mirror is reachable), plus the project's Node (`.node-version`, from scripts/node-runtime.sh),
 *   its headers (node-gyp compiles better-sqlite3 against them, offline) and this machine's npm;
 * - RUNTIME_BASE_IMAGE (the image that runs): from that same root filesystem only what distroless's
 *   `cc` image holds — the dynamic loader, glibc, libstdc++ and libgcc_s, CA certificates,
 *   passwd/group entries and /tmp. No shell, no package manager, no Node (the Dockerfile copies it
 *   from the build).
 * Each root filesystem is kept as a tarball under ~/.cache/reelstream-image/<key> and imported as
 * localhost/reelstream-base:<key> (resp. reelstream-runtime-base); a second run reuses the image,
 * or the tarball when the image store was emptied.
 */
import { createReadStream, existsSync, realpathSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { imageExists, podman } from './podman.js';
import { NICE, run } from './run.js';

const DEBIAN_SUITE = 'bookworm';
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
/** Raise when what goes into a base changes, so a cached base is not reused. */
const RECIPE = 3;
const RUNTIME_RECIPE = 1;
/**
 * What Node and better-sqlite3's addon link against (`ldd`), from glibc, libstdc++6 and libgcc-s1:
 * the files of distroless's `cc` image that they use. Since glibc 2.34 the `files` and `dns`
 * name services are inside libc.so.6.
 */
const RUNTIME_LIBRARIES = [
  'ld-linux-x86-64.so.2',
  'libc.so.6',
  'libm.so.6',
  'libdl.so.2',
  'libpthread.so.0',
  'librt.so.1',
  'libresolv.so.2',
  'libstdc++.so.6',
  'libgcc_s.so.1',
];
const REPOSITORY_ROOT = resolve(import.meta.dirname, '..', '..');
/** Besides minbase: TLS roots for the npm registry (npm ci in the build stage). */
const EXTRA_PACKAGES = ['ca-certificates'];

interface BaseImage {
  readonly tag: string;
  /** What was done: reused the image, imported the cached tarball, or made it with debootstrap. */
  readonly source: 'image' | 'tarball' | 'debootstrap';
}

/** The project's Node: scripts/node-runtime.sh prints its install prefix (fetched from the npm registry). */
async function projectNodePrefix(): Promise<string> {
  const { stdout } = await run(['bash', join(REPOSITORY_ROOT, 'scripts', 'node-runtime.sh')]);
  return stdout.trim();
}

async function nodeVersion(prefix: string): Promise<string> {
  return (await run([join(prefix, 'bin', 'node'), '--version'])).stdout.trim().replace(/^v/, '');
}

function baseKey(version: string): string {
  return `${DEBIAN_SUITE}-node${version}-${process.arch}-r${RECIPE}`;
}

function cacheDir(): string {
  return join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'reelstream-image');
}

/** This machine's npm (its package folder): the project's Node prefix from the npm registry carries none. */
async function hostNpmDirectory(): Promise<string> {
  const { stdout } = await run(['sh', '-c', 'command -v npm']);
  return dirname(dirname(realpathSync(stdout.trim())));
}

/** The certificates this machine's npm trusts besides Node's own: its `cafile`, else NODE_EXTRA_CA_CERTS. */
async function hostNpmCafile(): Promise<string | undefined> {
  const { stdout } = await run(['npm', 'config', 'get', 'cafile'], { allowFailure: true });
  for (const path of [stdout.trim(), process.env['NODE_EXTRA_CA_CERTS'] ?? ''])
    if (path && path !== 'null' && path !== 'undefined' && existsSync(path)) return path;
  return undefined;
}

/** Node, npm and Node's headers into /usr/local of the root filesystem, as the official image has them. */
async function addNode(rootfs: string, prefix: string): Promise<void> {
  const local = join(rootfs, 'usr', 'local');
  await cp(join(prefix, 'bin', 'node'), join(local, 'bin', 'node'));
  await cp(await hostNpmDirectory(), join(local, 'lib', 'node_modules', 'npm'), {
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

async function makeTarball(tarball: string, prefix: string): Promise<void> {
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
    await addNode(rootfs, prefix);
    const partial = `${tarball}.partial`;
    await run([...NICE, 'tar', '--numeric-owner', '-C', rootfs, '-cf', partial, '.']);
    await rename(partial, tarball);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The runtime base's root filesystem, taken from the build base's: the libraries by their
 * sonames (the files they point to, copied), CA certificates, passwd and group with root,
 * distroless's nonroot (65532) and the image's user (10001), and /tmp.
 */
async function makeRuntimeTarball(baseTarball: string, tarball: string): Promise<void> {
  const work = await mkdtemp(join(dirname(tarball), 'runtime-'));
  const base = join(work, 'base');
  const rootfs = join(work, 'rootfs');
  try {
    await mkdir(base);
    await run([...NICE, 'tar', '-C', base, '-xf', baseTarball]);
    const libraries = join(rootfs, 'lib', 'x86_64-linux-gnu');
    await mkdir(libraries, { recursive: true });
    for (const name of RUNTIME_LIBRARIES)
      await cp(realpathSync(join(base, 'usr', 'lib', 'x86_64-linux-gnu', name)), join(libraries, name));
    await mkdir(join(rootfs, 'lib64'));
    await symlink('../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2', join(rootfs, 'lib64', 'ld-linux-x86-64.so.2'));
    await mkdir(join(rootfs, 'usr', 'local', 'bin'), { recursive: true });
    await mkdir(join(rootfs, 'etc', 'ssl', 'certs'), { recursive: true });
    await cp(
      join(base, 'etc', 'ssl', 'certs', 'ca-certificates.crt'),
      join(rootfs, 'etc', 'ssl', 'certs', 'ca-certificates.crt'),
    );
    await writeFile(
      join(rootfs, 'etc', 'passwd'),
      'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\nreelstream:x:10001:10001:reelstream:/tmp:/sbin/nologin\n',
    );
    await writeFile(join(rootfs, 'etc', 'group'), 'root:x:0:\nnonroot:x:65532:\nreelstream:x:10001:\n');
    await writeFile(join(rootfs, 'etc', 'nsswitch.conf'), 'passwd: files\ngroup: files\nhosts: files dns\n');
    await mkdir(join(rootfs, 'tmp'));
    await chmod(join(rootfs, 'tmp'), 0o1777);
    const partial = `${tarball}.partial`;
    await run([...NICE, 'tar', '--numeric-owner', '--owner=0', '--group=0', '-C', rootfs, '-cf', partial, '.']);
    await rename(partial, tarball);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function importTarball(tarball: string, tag: string, changes: readonly string[]): Promise<void> {
  await podman(['import', ...changes.flatMap((change) => ['--change', change]), '-', tag], {
    input: createReadStream(tarball),
  });
}

export interface BaseImages {
  /** BASE_IMAGE: Debian minbase with Node and npm. */
  readonly build: BaseImage;
  /** RUNTIME_BASE_IMAGE: the libraries Node needs, no shell. */
  readonly runtime: BaseImage;
  /** The Node version inside (the project's, `.node-version`). */
  readonly nodeVersion: string;
}

/** Both base images, made or reused; `rebuild` makes them from nothing (the cold measurement). */
export async function ensureBaseImages(options: { rebuild?: boolean } = {}): Promise<BaseImages> {
  const prefix = await projectNodePrefix();
  const version = await nodeVersion(prefix);
  const key = baseKey(version);
  const runtimeKey = `${DEBIAN_SUITE}-${process.arch}-r${RECIPE}-${RUNTIME_RECIPE}`;
  const tag = `localhost/reelstream-base:${key}`;
  const runtimeTag = `localhost/reelstream-runtime-base:${runtimeKey}`;
  const directory = join(cacheDir(), key);
  const tarball = join(directory, 'rootfs.tar');
  const runtimeTarball = join(cacheDir(), `runtime-${runtimeKey}`, 'rootfs.tar');
  if (options.rebuild) {
    await rm(directory, { recursive: true, force: true });
    await rm(dirname(runtimeTarball), { recursive: true, force: true });
    await podman(['rmi', '--force', tag, runtimeTag], { allowFailure: true });
  }
  const path = 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
  const ensure = async (
    imageTag: string,
    file: string,
    make: () => Promise<void>,
    changes: readonly string[],
  ): Promise<BaseImage> => {
    if (await imageExists(imageTag)) return { tag: imageTag, source: 'image' };
    const cached = existsSync(file);
    if (!cached) {
      await mkdir(dirname(file), { recursive: true });
      await make();
    }
    await importTarball(file, imageTag, changes);
    return { tag: imageTag, source: cached ? 'tarball' : 'debootstrap' };
  };
  const makeBase = async () => {
    if (!existsSync(tarball)) {
      await mkdir(directory, { recursive: true });
      await makeTarball(tarball, prefix);
    }
  };
  const build = await ensure(tag, tarball, makeBase, [path, 'CMD ["node"]']);
  const runtime = await ensure(
    runtimeTag,
    runtimeTarball,
    async () => {
      await makeBase();
      await makeRuntimeTarball(tarball, runtimeTarball);
    },
    [path, 'USER 65532:65532'],
  );
  return { build, runtime, nodeVersion: version };
}
