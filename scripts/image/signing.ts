/**
 * Signing and verifying as podman does it: containers/image "simple signing" with a GPG key
 * (`podman push --sign-by <fingerprint>`), the signatures kept in a lookaside directory named by a
 * registries.d file, and verified by a containers policy.json that requires `signedBy` that key.
 *
 * Why GPG and not `--sign-by-sigstore-private-key`: Debian's podman 4.3.1 lists the flag, but its
 * build refuses it ("Debian-local change: sigstore disabled"); it would also need a cosign-format
 * key, which nothing in Debian bookworm makes (no cosign package, and skopeo 1.9 predates
 * `generate-sigstore-key`).
 *
 * The key is made for the run, in a GNUPGHOME of its own, and never leaves it: a release signs with
 * the project's key the same way (k8s/README.md, "The image's signature and bill of materials").
 * podman reads registries.d from `$HOME/.config/containers/registries.d` when that exists (before
 * /etc/containers/registries.d), so its commands run with HOME set to the run's directory and this
 * machine's configuration is left alone; skopeo takes `--registries.d`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { podmanCommand } from './podman.js';
import { NICE, run, type RunResult } from './run.js';

export interface Trust {
  /** The signing key's fingerprint. */
  readonly fingerprint: string;
  /** A policy.json that requires signatures by that key for `<registry>/<repository>` and refuses anything else. */
  readonly policyFile: string;
  readonly registriesDir: string;
  /** Where signatures are written and read (`<repository>@sha256=<hex>/signature-N`). */
  readonly lookasideDir: string;
  readonly env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** A throw-away signing key and the configuration that writes and requires its signatures for `registry/repository`. */
export async function createTrust(dir: string, registry: string, repository: string): Promise<Trust> {
  const gnupgHome = join(dir, 'gnupg');
  const home = join(dir, 'home');
  const registriesDir = join(home, '.config', 'containers', 'registries.d');
  const lookasideDir = join(dir, 'signatures');
  await mkdir(gnupgHome, { recursive: true, mode: 0o700 });
  await mkdir(registriesDir, { recursive: true });
  await mkdir(lookasideDir, { recursive: true });
  const env = { ...process.env, GNUPGHOME: gnupgHome, HOME: home };
  const gpg = (args: readonly string[]) => run(['gpg', '--batch', ...args], { env });
  await gpg([
    '--pinentry-mode',
    'loopback',
    '--passphrase',
    '',
    '--quick-gen-key',
    'reelstream test:image (throw-away) <test-image@reelstream.invalid>',
    'ed25519',
    'sign',
    '1d',
  ]);
  const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec((await gpg(['--with-colons', '--list-secret-keys'])).stdout)?.[1];
  if (!fingerprint) throw new Error('gpg made no signing key');
  const publicKeyFile = join(dir, 'signer.gpg');
  await gpg(['--output', publicKeyFile, '--export', fingerprint]);
  await writeFile(
    join(registriesDir, 'reelstream-test-image.yaml'),
    [
      'docker:',
      `  ${registry}:`,
      `    lookaside: file://${lookasideDir}`,
      `    lookaside-staging: file://${lookasideDir}`,
      '',
    ].join('\n'),
  );
  const policyFile = join(dir, 'policy.json');
  await writeFile(
    policyFile,
    JSON.stringify(
      {
        default: [{ type: 'reject' }],
        transports: {
          docker: { [`${registry}/${repository}`]: [{ type: 'signedBy', keyType: 'GPGKeys', keyPath: publicKeyFile }] },
        },
      },
      null,
      2,
    ),
  );
  return {
    fingerprint,
    policyFile,
    registriesDir,
    lookasideDir,
    env,
    async close() {
      await run(['gpgconf', '--kill', 'gpg-agent'], { env, allowFailure: true });
    },
  };
}

/** `podman push --sign-by`: `image` to `destination`, signed by the trust's key; the digest the registry answered. */
export function pushSigned(trust: Trust, image: string, destination: string, dir: string): Promise<string> {
  return push(trust, image, destination, join(dir, 'signed.digest'), ['--sign-by', trust.fingerprint]);
}

/** `podman push` without a signature (what someone without the key can do); the digest. */
export function pushUnsigned(trust: Trust, image: string, destination: string, dir: string): Promise<string> {
  return push(trust, image, destination, join(dir, 'unsigned.digest'), []);
}

async function push(
  trust: Trust,
  image: string,
  destination: string,
  digestFile: string,
  signing: readonly string[],
): Promise<string> {
  await run(
    [
      ...NICE,
      ...podmanCommand([
        'push',
        '--quiet',
        '--tls-verify=false',
        // The local image carries the signature of an earlier run's verifying pull, for that run's registry.
        '--remove-signatures',
        ...signing,
        '--digestfile',
        digestFile,
        image,
        `docker://${destination}`,
      ]),
    ],
    { env: trust.env },
  );
  return (await readFile(digestFile, 'utf8')).trim();
}

/**
 * Signs what `reference` (`registry/repository@sha256:…`) names in the registry, e.g. an artifact
 * podman cannot push: `skopeo copy --sign-by` onto itself rewrites the same manifest (same digest)
 * under `tag` and writes the signature beside the image's. The source is read without a policy: it
 * is what this run has just pushed.
 */
export async function signInRegistry(trust: Trust, reference: string, tag: string): Promise<void> {
  await run(
    [
      'skopeo',
      '--insecure-policy',
      '--registries.d',
      trust.registriesDir,
      'copy',
      '--quiet',
      '--src-tls-verify=false',
      '--dest-tls-verify=false',
      '--sign-by',
      trust.fingerprint,
      `docker://${reference}`,
      `docker://${tag}`,
    ],
    { env: trust.env },
  );
}

/** `podman pull` under the trust's policy: refused unless signed by its key. Failure is returned, not thrown. */
export function pullVerified(trust: Trust, reference: string): Promise<RunResult> {
  return run(
    podmanCommand(['pull', '--quiet', '--tls-verify=false', '--signature-policy', trust.policyFile, reference]),
    { env: trust.env, allowFailure: true },
  );
}

/**
 * `skopeo copy` of `reference` into `dir:<out>` under the trust's policy: how a reader without podman
 * (an admission step) gets an artifact only if its signature holds. Failure is returned, not thrown.
 */
export function readVerified(trust: Trust, reference: string, out: string): Promise<RunResult> {
  return run(
    [
      'skopeo',
      '--policy',
      trust.policyFile,
      '--registries.d',
      trust.registriesDir,
      'copy',
      '--quiet',
      '--src-tls-verify=false',
      `docker://${reference}`,
      `dir:${out}`,
    ],
    { env: trust.env, allowFailure: true },
  );
}
