/**
 * The platform as containers of the image: the operator sandbox, bonus-ledger, wallet-dispatcher,
 * game-server and gateway, each as the hardened manifests run it (read-only root filesystem,
 * numeric non-root user, bounded file and process limits), on the host's network with distinct
 * ports, sharing one data directory. Every container is removed by `remove()`, whatever happened.
 */
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The subpath: the package's index loads the jest contract suites.
import { freePort } from '@reelstream/testing/net';
import { podman } from './podman.js';

const IMAGE_USER = 10001;

export const E2E_OPERATOR = {
  id: 'image',
  token: 'image-api-token-0123456789abcdef',
  currency: 'EUR',
  timeZone: 'Europe/Malta',
} as const;

interface AppContainer {
  readonly app: string;
  readonly name: string;
  readonly readyUrl: string;
}

export interface Platform {
  readonly containers: readonly AppContainer[];
  readonly gatewayUrl: string;
  readonly gameUrl: string;
  readonly sandboxUrl: string;
  readonly dataDir: string;
  /** The last lines of each container's output (for a failure report). */
  logs(lines?: number): Promise<string>;
  remove(): Promise<void>;
}

function operatorsJson(callbackUrl: string): string {
  return JSON.stringify([
    {
      id: E2E_OPERATOR.id,
      name: 'Image Casino',
      apiToken: E2E_OPERATOR.token,
      callbackUrl,
      signingSecret: 'image-signing-secret-0123456789',
      currency: E2E_OPERATOR.currency,
      timeZone: E2E_OPERATOR.timeZone,
      signatureScheme: 'timestamp.body',
      // The image runs with NODE_ENV=production, which refuses a loopback callback URL unless allowed.
      allowPrivateAddresses: true,
    },
  ]);
}

export async function startPlatform(image: string): Promise<Platform> {
  const dataDir = await mkdtemp(join(tmpdir(), 'reelstream-image-data-'));
  // The image's user owns the data directory, as fsGroup makes it in Kubernetes.
  await chown(dataDir, IMAGE_USER, IMAGE_USER);
  const [sandboxPort, ledgerHealth, dispatcherHealth, gamePort, gatewayPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const local = (port: number | undefined) => `http://127.0.0.1:${String(port)}`;
  const sandboxUrl = local(sandboxPort);
  const gameUrl = local(gamePort);
  const gatewayUrl = local(gatewayPort);
  const common = {
    DATA_DIR: '/data',
    LOG_LEVEL: 'info',
    OPERATORS_JSON: operatorsJson(`${sandboxUrl}/wallet/${E2E_OPERATOR.id}`),
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_HOST: '127.0.0.1',
    GAME_PORT: String(gamePort),
    GATEWAY_PORT: String(gatewayPort),
    LAUNCH_BASE_URL: gameUrl,
  };
  const apps: [app: string, readyUrl: string, env: Record<string, string>][] = [
    ['operator-sandbox', sandboxUrl, {}],
    ['bonus-ledger', local(ledgerHealth), { HEALTH_PORT: String(ledgerHealth) }],
    ['wallet-dispatcher', local(dispatcherHealth), { HEALTH_PORT: String(dispatcherHealth) }],
    ['game-server', gameUrl, {}],
    ['gateway', gatewayUrl, {}],
  ];
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const containers: AppContainer[] = [];
  const platform: Platform = {
    containers,
    gatewayUrl,
    gameUrl,
    sandboxUrl,
    dataDir,
    async logs(lines = 30) {
      const parts: string[] = [];
      for (const { name } of containers) {
        const { stdout, stderr } = await podman(['logs', '--tail', String(lines), name], { allowFailure: true });
        parts.push(`--- ${name}\n${stdout}${stderr}`);
      }
      return parts.join('\n');
    },
    async remove() {
      if (containers.length > 0)
        await podman(['rm', '--force', '--time', '5', ...containers.map(({ name }) => name)], { allowFailure: true });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  try {
    for (const [app, baseUrl, env] of apps) {
      const name = `reelstream-image-${app}-${suffix}`;
      // Recorded before it runs, so remove() finds it however `run` ends.
      containers.push({ app, name, readyUrl: `${baseUrl}/readyz` });
      const variables = Object.entries({ ...common, ...env }).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
      await podman([
        'run',
        '--detach',
        '--name',
        name,
        '--network',
        'host',
        '--read-only',
        '--user',
        `${IMAGE_USER}:${IMAGE_USER}`,
        '--ulimit',
        'nofile=1024:1024',
        '--ulimit',
        'nproc=1024:1024',
        '--volume',
        `${dataDir}:/data`,
        ...variables,
        image,
        app,
      ]);
    }
  } catch (error) {
    await platform.remove();
    throw error;
  }
  return platform;
}

/** Polls every container's /readyz until each answers 200; fails with the first one that does not. */
export async function waitUntilReady(platform: Platform, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    platform.containers.map(async ({ name, readyUrl }) => {
      let last = 'no answer';
      while (Date.now() < deadline) {
        try {
          const response = await fetch(readyUrl, { signal: AbortSignal.timeout(2_000) });
          if (response.status === 200) return;
          last = `HTTP ${response.status} ${await response.text()}`;
        } catch (error) {
          last = (error as Error).message;
        }
        const { stdout } = await podman(['inspect', '--format', '{{.State.Status}}', name], { allowFailure: true });
        if (stdout.trim() === 'exited') throw new Error(`${name} exited before it was ready`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      throw new Error(`${name}: ${readyUrl} not ready after ${timeoutMs} ms (${last})`);
    }),
  );
}
