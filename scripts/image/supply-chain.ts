/**
 * The supply chain of the image, as `npm run test:image` checks it after the image has played a
 * bonus (each phase timed):
 *   sign   — a registry on 127.0.0.1 (Debian's docker-registry) and a throw-away GPG key; the image
 *            pushed with `podman push --sign-by`, its signature in the lookaside directory; the
 *            digest the registry answered is printed;
 *   sbom   — the image's CycloneDX bill of materials published beside it as an OCI artifact whose
 *            `subject` is the image manifest, under the tag `sha256-<hex>.sbom` (cosign's
 *            convention) and listed in the referrers tag `sha256-<hex>` (the OCI distribution spec's
 *            fallback for a registry without the referrers API, as distribution 2.8 is), then signed
 *            by the same key (`skopeo copy --sign-by`);
 *   verify — under a policy.json that requires that key for that repository: the signed image pulls
 *            (by digest); the bill of materials reads back (skopeo, signature checked) and is the
 *            image's /app/sbom.cdx.json byte for byte; an unsigned image pushed under the same tag,
 *            the same image with the genuine signature copied onto it, and an unsigned document
 *            pushed as the bill of materials are all refused;
 *   pin    — `npm run release:pin` on a copy of k8s/ with the pushed digest, and its production
 *            renders run every container from exactly that digest.
 * Every check that fails throws with what it found; nothing is only printed.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { allContainersOf, podTemplateOf, type Container } from '../../k8s/test/render.js';
import { podman } from './podman.js';
import {
  getManifest,
  OCI_INDEX,
  OCI_MANIFEST,
  pushBlob,
  putManifest,
  startRegistry,
  type Descriptor,
} from './registry.js';
import { installed, run } from './run.js';
import {
  createTrust,
  pullVerified,
  pushSigned,
  pushUnsigned,
  readVerified,
  signInRegistry,
  type Trust,
} from './signing.js';

const REPOSITORY_ROOT = resolve(import.meta.dirname, '..', '..');
const REPOSITORY = 'reelstream';
const TAG = 'test-image';
const CYCLONEDX_JSON = 'application/vnd.cyclonedx+json';
const OCI_EMPTY = 'application/vnd.oci.empty.v1+json';
const PRODUCTION_OVERLAYS = ['overlays/production', 'overlays/production-eventstoredb'];

export type Phase = <T>(name: string, work: () => Promise<T>) => Promise<T>;

function check(condition: boolean, failure: string): asserts condition {
  if (!condition) throw new Error(`supply chain: ${failure}`);
}

const hexOf = (digest: string) => digest.replace(/^sha256:/, '');

/** The bill of materials as an OCI artifact referring to `subject`, pushed and tagged; its descriptor. */
async function publishSbom(host: string, subject: Descriptor, sbom: string): Promise<Descriptor> {
  const layer = await pushBlob(host, REPOSITORY, Buffer.from(sbom), CYCLONEDX_JSON);
  const config = await pushBlob(host, REPOSITORY, Buffer.from('{}'), OCI_EMPTY);
  const artifact = await putManifest(host, REPOSITORY, `sha256-${hexOf(subject.digest)}.sbom`, {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: CYCLONEDX_JSON,
    config,
    layers: [{ ...layer, annotations: { 'org.opencontainers.image.title': 'sbom.cdx.json' } }],
    subject: { mediaType: subject.mediaType, digest: subject.digest, size: subject.size },
  } as { mediaType: string; artifactType: string });
  await putManifest(host, REPOSITORY, `sha256-${hexOf(subject.digest)}`, {
    schemaVersion: 2,
    mediaType: OCI_INDEX,
    manifests: [artifact],
  } as { mediaType: string });
  return artifact;
}

/** A one-file image that is not the platform: what an attacker with push rights but no key could push. */
async function impostorImage(dir: string): Promise<string> {
  const root = join(dir, 'impostor');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'impostor.txt'), 'not reelstream\n');
  await run(['tar', '-C', root, '-cf', `${root}.tar`, 'impostor.txt']);
  const tag = 'localhost/reelstream-impostor:test-image';
  await podman(['import', '--quiet', `${root}.tar`, tag]);
  return tag;
}

async function verify(
  trust: Trust,
  host: string,
  dir: string,
  image: string,
  digest: string,
  sbom: string,
): Promise<void> {
  const signed = `${host}/${REPOSITORY}@${digest}`;
  const pulled = await pullVerified(trust, signed);
  check(
    pulled.code === 0,
    `the signed image ${signed} was refused under the policy that requires the CI key:\n${pulled.stderr.trim()}`,
  );
  const [localId, pulledId] = await Promise.all(
    [image, signed].map(async (name) =>
      (await podman(['image', 'inspect', '--format', '{{.Id}}', name])).stdout.trim(),
    ),
  );
  check(localId === pulledId, `pulling ${signed} gave the image ${pulledId}, not the one built (${localId})`);
  process.stdout.write(`test:image: pulled ${signed}: signature by ${trust.fingerprint} accepted\n`);

  const sbomTag = `${host}/${REPOSITORY}:sha256-${hexOf(digest)}.sbom`;
  const out = join(dir, 'sbom-read');
  const read = await readVerified(trust, sbomTag, out);
  check(
    read.code === 0,
    `the signed bill of materials ${sbomTag} was refused under the policy:\n${read.stderr.trim()}`,
  );
  const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as {
    artifactType?: string;
    subject?: Descriptor;
    layers: Descriptor[];
  };
  check(
    manifest.subject?.digest === digest,
    `the bill of materials refers to ${manifest.subject?.digest}, not the image ${digest}`,
  );
  const layer = manifest.layers.find((candidate) => candidate.mediaType === CYCLONEDX_JSON);
  check(layer !== undefined, `the bill of materials artifact has no ${CYCLONEDX_JSON} layer`);
  const published = await readFile(join(out, hexOf(layer.digest)), 'utf8');
  check(
    published === sbom,
    "the bill of materials read back from the registry differs from the image's /app/sbom.cdx.json",
  );
  const referrers = JSON.parse(
    (await getManifest(host, REPOSITORY, `sha256-${hexOf(digest)}`)).bytes.toString('utf8'),
  ) as {
    manifests: Descriptor[];
  };
  check(
    referrers.manifests.some((entry) => entry.artifactType === CYCLONEDX_JSON),
    `the referrers tag sha256-${hexOf(digest)} does not list the bill of materials`,
  );
  process.stdout.write(
    `test:image: read ${sbomTag} (signature accepted): ${published.length} bytes, the image's /app/sbom.cdx.json\n`,
  );

  // What the policy is for: an image or a document that is not the one signed is refused.
  const impostor = await impostorImage(dir);
  try {
    const tagged = `${host}/${REPOSITORY}:${TAG}`;
    const impostorDigest = await pushUnsigned(trust, impostor, tagged, dir);
    const unsigned = await pullVerified(trust, tagged);
    check(
      unsigned.code !== 0 && /signature/i.test(unsigned.stderr),
      `an unsigned image pushed as ${tagged} (${impostorDigest}) was not refused for want of a signature (exit ${unsigned.code}): ${unsigned.stderr.trim()}`,
    );
    process.stdout.write(`test:image: refused an unsigned image pushed as ${tagged}: ${lastLine(unsigned.stderr)}\n`);
    // The genuine signature copied onto the impostor: it names the image's digest, not this one.
    await cp(
      join(trust.lookasideDir, `${REPOSITORY}@sha256=${hexOf(digest)}`),
      join(trust.lookasideDir, `${REPOSITORY}@sha256=${hexOf(impostorDigest)}`),
      { recursive: true },
    );
    const copied = await pullVerified(trust, tagged);
    check(
      copied.code !== 0 && /does not match/i.test(copied.stderr),
      `an image carrying the signature of another digest was not refused as not matching (exit ${copied.code}): ${copied.stderr.trim()}`,
    );
    process.stdout.write(
      `test:image: refused it with the signed image's signature copied onto it: ${lastLine(copied.stderr)}\n`,
    );
  } finally {
    await podman(['rmi', '--force', impostor], { allowFailure: true });
  }
  const subject = (await getManifest(host, REPOSITORY, digest)).descriptor;
  await publishSbom(host, subject, '{"bomFormat":"CycloneDX","components":[]}');
  const forged = await readVerified(trust, sbomTag, join(dir, 'sbom-forged'));
  check(
    forged.code !== 0 && /signature/i.test(forged.stderr),
    `an unsigned document pushed as ${sbomTag} was read (exit ${forged.code}): ${forged.stderr.trim()}`,
  );
  process.stdout.write(
    `test:image: refused an unsigned bill of materials pushed as ${sbomTag}: ${lastLine(forged.stderr)}\n`,
  );
}

function lastLine(text: string): string {
  return (text.trim().split('\n').at(-1) ?? '').replace(/^.*?(Source image rejected)/, '$1').replace(/"$/, '');
}

/** `npm run release:pin` on a copy of k8s/, then its production renders: every container runs `digest`. */
async function pinCopy(dir: string, digest: string): Promise<void> {
  const copy = join(dir, 'k8s');
  await cp(join(REPOSITORY_ROOT, 'k8s'), copy, {
    recursive: true,
    filter: (source) => source !== join(REPOSITORY_ROOT, 'k8s', 'test'),
  });
  const pinned = await run(
    [
      'node',
      '--import',
      'tsx',
      join(REPOSITORY_ROOT, 'scripts', 'release-pin.ts'),
      digest,
      '--overlay',
      join(copy, 'overlays', 'production'),
    ],
    { cwd: REPOSITORY_ROOT },
  );
  process.stdout.write(`test:image: ${pinned.stdout.trim()}\n`);
  if (!(await installed('kubectl'))) {
    check(
      process.env['CI'] !== 'true',
      'kubectl is missing from the PATH: the pinned production overlays cannot be rendered',
    );
    process.stderr.write('test:image: NOTICE: kubectl not on the PATH: the pinned overlays were NOT rendered\n');
    return;
  }
  for (const overlay of PRODUCTION_OVERLAYS) {
    const rendered = await run(['kubectl', 'kustomize', join(copy, overlay)]);
    const containers = parseAllDocuments(rendered.stdout).flatMap((document) => {
      const object = document.toJS() as Parameters<typeof podTemplateOf>[0] | null;
      return object && podTemplateOf(object) ? allContainersOf(object) : ([] as Container[]);
    });
    const elsewhere = containers.filter((container) => !container.image.endsWith(`@${digest}`));
    check(containers.length > 0, `the pinned ${overlay} renders no container`);
    check(
      elsewhere.length === 0,
      `the pinned ${overlay} runs ${elsewhere.map((c) => `${c.name} from ${c.image}`).join(', ')}, not @${digest}`,
    );
    process.stdout.write(`test:image: pinned ${overlay}: all ${containers.length} containers run @${digest}\n`);
  }
}

/** Signs and publishes `image` with its bill of materials, proves both verify and forgeries do not, and pins the digest. */
export async function checkSupplyChain(phase: Phase, image: string, sbom: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'reelstream-supply-chain-'));
  let stopRegistry: (() => Promise<void>) | undefined;
  let trust: Trust | undefined;
  try {
    const { host, digest, signing } = await phase('sign', async () => {
      const registry = await startRegistry(join(dir, 'registry'));
      stopRegistry = () => registry.stop();
      const signing = await createTrust(dir, registry.host, REPOSITORY);
      trust = signing;
      const digest = await pushSigned(signing, image, `${registry.host}/${REPOSITORY}:${TAG}`, dir);
      check(/^sha256:[0-9a-f]{64}$/.test(digest), `podman push answered no digest (${digest})`);
      process.stdout.write(
        `test:image: pushed ${registry.host}/${REPOSITORY}:${TAG} as ${digest}, signed by ${signing.fingerprint}\n`,
      );
      return { host: registry.host, digest, signing };
    });
    await phase('sbom', async () => {
      const subject = (await getManifest(host, REPOSITORY, digest)).descriptor;
      const artifact = await publishSbom(host, subject, sbom);
      await signInRegistry(
        signing,
        `${host}/${REPOSITORY}@${artifact.digest}`,
        `${host}/${REPOSITORY}:sha256-${hexOf(digest)}.sbom`,
      );
      process.stdout.write(
        `test:image: bill of materials ${host}/${REPOSITORY}@${artifact.digest} (tag sha256-${hexOf(digest)}.sbom, subject ${digest}), signed\n`,
      );
    });
    await phase('verify', () => verify(signing, host, dir, image, digest, sbom));
    await phase('pin', () => pinCopy(dir, digest));
    process.stdout.write(`test:image: image digest ${digest}\n`);
  } finally {
    await trust?.close();
    await stopRegistry?.();
    await rm(dir, { recursive: true, force: true });
  }
}
