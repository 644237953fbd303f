/**
 * The image registry `npm run test:image` publishes to: Debian's docker-registry (CNCF distribution
 * 2.8) as a process on 127.0.0.1, plain HTTP, with its config and storage in a directory of the run;
 * and the few calls of the OCI distribution API that publishing the bill of materials needs (upload
 * a blob, put and get a manifest, get a blob), which podman 4.3 has no command for.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { openSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';

export interface Descriptor {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
  readonly artifactType?: string;
  readonly annotations?: Record<string, string>;
}

export interface LocalRegistry {
  /** `127.0.0.1:<port>`, the registry part of image references. */
  readonly host: string;
  stop(): Promise<void>;
}

const sha256Of = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** Starts `docker-registry serve` on a free port of 127.0.0.1, storing under `dir`; ready when /v2/ answers. */
export async function startRegistry(dir: string): Promise<LocalRegistry> {
  const host = `127.0.0.1:${await freePort()}`;
  await mkdir(join(dir, 'storage'), { recursive: true });
  const config = join(dir, 'config.yml');
  await writeFile(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(dir, 'storage')}`,
      'http:',
      `  addr: ${host}`,
      '',
    ].join('\n'),
  );
  const log = openSync(join(dir, 'registry.log'), 'a');
  const child = spawn('docker-registry', ['serve', config], { stdio: ['ignore', log, log] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`docker-registry exited with ${child.exitCode}: see ${dir}/registry.log`);
    const answer = await fetch(`http://${host}/v2/`).catch(() => undefined);
    if (answer?.status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`docker-registry did not answer on ${host} within 15 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    host,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function expectStatus(answer: Response, status: number, what: string): Promise<void> {
  if (answer.status !== status)
    throw new Error(`${what}: the registry answered ${answer.status} ${(await answer.text()).slice(0, 300)}`);
}

/** Uploads a blob (monolithic: POST then PUT with its digest) and gives its descriptor. */
export async function pushBlob(
  host: string,
  repository: string,
  bytes: Uint8Array,
  mediaType: string,
): Promise<Descriptor> {
  const digest = sha256Of(bytes);
  const started = await fetch(`http://${host}/v2/${repository}/blobs/uploads/`, { method: 'POST' });
  await expectStatus(started, 202, `starting the upload of ${digest}`);
  const location = new URL(started.headers.get('location') ?? '', `http://${host}`);
  location.searchParams.set('digest', digest);
  const put = await fetch(location, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  await expectStatus(put, 201, `uploading ${digest}`);
  return { mediaType, digest, size: bytes.byteLength };
}

/** Puts a manifest under a tag (or its digest) and gives its descriptor, checked against the registry's digest. */
export async function putManifest(
  host: string,
  repository: string,
  reference: string,
  manifest: { readonly mediaType: string; readonly artifactType?: string },
): Promise<Descriptor> {
  const bytes = Buffer.from(JSON.stringify(manifest));
  const answer = await fetch(`http://${host}/v2/${repository}/manifests/${reference}`, {
    method: 'PUT',
    headers: { 'content-type': manifest.mediaType },
    body: bytes,
  });
  await expectStatus(answer, 201, `putting the manifest ${repository}:${reference}`);
  const digest = sha256Of(bytes);
  const stored = answer.headers.get('docker-content-digest');
  if (stored !== digest) throw new Error(`the registry stored ${repository}:${reference} as ${stored}, not ${digest}`);
  return {
    mediaType: manifest.mediaType,
    digest,
    size: bytes.byteLength,
    ...(manifest.artifactType ? { artifactType: manifest.artifactType } : {}),
  };
}

/** A manifest as the registry serves it (OCI or Docker v2), its bytes checked against the digest asked for. */
export async function getManifest(
  host: string,
  repository: string,
  reference: string,
): Promise<{ descriptor: Descriptor; bytes: Buffer }> {
  const answer = await fetch(`http://${host}/v2/${repository}/manifests/${reference}`, {
    headers: { accept: [OCI_MANIFEST, OCI_INDEX, DOCKER_MANIFEST].join(', ') },
  });
  await expectStatus(answer, 200, `getting the manifest ${repository}:${reference}`);
  const bytes = Buffer.from(await answer.arrayBuffer());
  const digest = sha256Of(bytes);
  if (reference.startsWith('sha256:') && digest !== reference)
    throw new Error(`the registry served ${repository}@${reference} with the digest ${digest}`);
  return {
    descriptor: { mediaType: answer.headers.get('content-type') ?? OCI_MANIFEST, digest, size: bytes.byteLength },
    bytes,
  };
}
