/**
 * The image's files as data (docker/Dockerfile, docker/entrypoint.mjs, .dockerignore) and the
 * bundles it ships: every name the entrypoint accepts runs a bundle that `npm run build` produces,
 * and those bundles run. (`npm run test:image` builds and runs the image itself.)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { APPS, APP_TOOLS, buildApps, REPOSITORY_ROOT, type BuiltApp } from '../../scripts/build-apps.js';
import { entryFor } from '../entrypoint.mjs';

const dockerfile = readFileSync(join(REPOSITORY_ROOT, 'docker', 'Dockerfile'), 'utf8');
const entrypoint = join(REPOSITORY_ROOT, 'docker', 'entrypoint.mjs');
const TOOLS: Readonly<Record<string, string>> = {
  redrive: 'wallet-dispatcher/redrive.js',
  'kafka-topics': 'platform/kafka-topics.js',
  reelstream: 'reelstream-cli/main.js',
};

/** Instructions of the last stage (the image that runs). */
function runtimeStage(): string[] {
  const stages = dockerfile.split(/^FROM /m);
  return (stages.at(-1) ?? '').split('\n').map((line) => line.trim());
}

describe('docker/Dockerfile', () => {
  it('builds on BASE_IMAGE, by default the official Node 24 bookworm-slim image, and runs on RUNTIME_BASE_IMAGE', () => {
    expect(dockerfile).toMatch(/^ARG BASE_IMAGE=node:24-bookworm-slim$/m);
    expect(dockerfile).toMatch(/^ARG RUNTIME_BASE_IMAGE=gcr\.io\/distroless\/cc-debian12:nonroot$/m);
    const froms = dockerfile.match(/^FROM .*$/gm) ?? [];
    expect(froms.length).toBeGreaterThanOrEqual(4);
    for (const from of froms)
      expect(from).toMatch(/^FROM (\$\{BASE_IMAGE\}|\$\{RUNTIME_BASE_IMAGE\}|[a-z-]+) AS [a-z-]+$/);
    expect(froms.at(-1)).toBe('FROM ${RUNTIME_BASE_IMAGE} AS runtime');
  });

  it('runs as the numeric non-root user with Node from the build, production dependencies and the bundles', () => {
    const runtime = runtimeStage();
    expect(runtime).toContain('USER 10001:10001');
    expect(runtime).toContain('COPY --from=build /out/node /usr/local/bin/node');
    expect(runtime).toContain('COPY --from=production-dependencies /app/node_modules ./node_modules');
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime.filter((line) => line.startsWith('COPY . '))).toEqual([]);
    // No shell in the runtime base: no RUN there, and a JavaScript entrypoint.
    expect(runtime.filter((line) => line.startsWith('RUN '))).toEqual([]);
    expect(runtime).toContain('ENTRYPOINT ["node", "/app/entrypoint.mjs"]');
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    // The data directory belongs to the user; the rest of the root filesystem may be read-only.
    expect(runtime).toContain('COPY --from=build --chown=10001:10001 /out/data /data');
    expect(dockerfile).toMatch(/chmod 0750 \/out\/data/);
    expect(runtime).toContain('VOLUME ["/data"]');
    expect(runtime.join('\n')).toMatch(/DATA_DIR=\/data/);
  });

  it('names its source revision and version, and carries its bill of materials', () => {
    const runtime = runtimeStage().join('\n');
    for (const label of ['title', 'version', 'revision', 'licenses'])
      expect(runtime).toContain(`org.opencontainers.image.${label}=`);
    expect(runtime).toContain('org.opencontainers.image.revision="${REVISION}"');
    expect(dockerfile).toMatch(
      /npm sbom --omit=dev --package-lock-only --sbom-format cyclonedx .*> \/app\/sbom\.cdx\.json/,
    );
    expect(runtime).toContain('COPY --from=production-dependencies /app/sbom.cdx.json ./sbom.cdx.json');
  });

  it('installs dependencies from the manifests alone, so an unchanged lock file reuses that layer', () => {
    const stages = dockerfile.split(/^FROM /m);
    const dependencies = stages.find((stage) => stage.startsWith('${BASE_IMAGE} AS dependencies')) ?? '';
    expect(dependencies).toContain('COPY --from=manifests /manifests/ ./');
    expect(dependencies).toContain('npm ci');
    expect(dependencies).not.toMatch(/^COPY \. /m);
  });

  it('holds no TypeScript runner, pretty-printer or API reference package at run time: they are development dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const name of ['tsx', 'pino-pretty', '@scalar/api-reference', 'typescript', 'esbuild']) {
      expect(manifest.dependencies[name]).toBeUndefined();
    }
    for (const name of ['tsx', 'pino-pretty', '@scalar/api-reference'])
      expect(manifest.devDependencies[name]).toBeDefined();
  });

  it('leaves node_modules, dist, data and the git directory out of the build context', () => {
    const ignored = readFileSync(join(REPOSITORY_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['**/node_modules', 'dist', 'data', '.git', 'tmp']) expect(ignored).toContain(entry);
  });
});

describe('docker/entrypoint.mjs and the bundles it runs', () => {
  let buildDir: string;
  let built: BuiltApp[];

  beforeAll(async () => {
    mkdirSync(join(REPOSITORY_ROOT, 'tmp'), { recursive: true });
    // Inside the repository, so the bundles find node_modules as dist/ does.
    buildDir = mkdtempSync(join(REPOSITORY_ROOT, 'tmp', 'image-build-'));
    built = await buildApps(APPS, { outDir: join(buildDir, 'dist') });
    // The image's /app: the entrypoint beside dist/.
    copyFileSync(entrypoint, join(buildDir, 'entrypoint.mjs'));
  });
  afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

  /** The entrypoint run for real from the test's /app, as the image's ENTRYPOINT runs it. */
  const entry = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(buildDir, 'entrypoint.mjs'), ...args], {
      encoding: 'utf8',
      cwd: buildDir,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
    });

  it('builds every app and every command-line tool, and the API reference beside the gateway', () => {
    expect(built.map(({ app }) => app).sort()).toEqual([...APPS].sort());
    for (const app of built) {
      expect(existsSync(app.entry)).toBe(true);
      for (const tool of APP_TOOLS[app.app] ?? []) expect(existsSync(app.tools[tool] ?? '')).toBe(true);
    }
    for (const path of Object.values(TOOLS)) expect(existsSync(join(buildDir, 'dist', 'apps', path))).toBe(true);
    for (const app of ['gateway', 'platform'])
      expect(
        statSync(join(buildDir, 'dist', 'apps', app, 'libs/gateway/service/src/openapi/scalar-standalone.js')).size,
      ).toBeGreaterThan(1_000_000);
  });

  it('maps the app named by the first argument, or by REELSTREAM_APP, to its bundle with the other arguments', () => {
    for (const app of APPS) {
      const chosen = entryFor([app, '--flag', 'a b'], {}, '/app/dist');
      expect(chosen).toEqual({ run: `/app/dist/apps/${app}/main.js`, args: ['--flag', 'a b'] });
      expect(existsSync(join(buildDir, 'dist', 'apps', app, 'main.js'))).toBe(true);
    }
    for (const [tool, path] of Object.entries(TOOLS))
      expect(entryFor([tool, '--list'], {}, '/app/dist')).toEqual({ run: `/app/dist/apps/${path}`, args: ['--list'] });
    expect(entryFor([], { REELSTREAM_APP: 'gateway' }, '/app/dist')).toEqual({
      run: '/app/dist/apps/gateway/main.js',
      args: [],
    });
    expect(entryFor(['node', '-e', '1'], {}, '/app/dist')).toEqual({ node: ['-e', '1'] });
  });

  it('refuses an unknown or missing app with its usage and exit code 64', () => {
    for (const args of [['nonsense'], []]) {
      const result = entry(args);
      expect(result.status).toBe(64);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('usage: IMAGE <app>');
    }
    expect(entry(['nonsense']).stderr).toContain('unknown app: nonsense');
    expect(entry(['help']).status).toBe(0);
  });

  it('runs the command-line bundles through the entrypoint without tsx, and any node command line', () => {
    const cli = entry(['reelstream', '--help']);
    expect(cli.status).toBe(0);
    expect(`${cli.stdout}${cli.stderr}`).toContain('usage: reelstream <command>');
    const topics = entry(['kafka-topics', 'nonsense']);
    expect(`${topics.stdout}${topics.stderr}`).toContain('usage: kafka:topics');
    const redrive = entry(['redrive', '--nonsense']);
    expect(redrive.status).not.toBe(0);
    expect(`${redrive.stdout}${redrive.stderr}`).toContain('usage: npm run wallet:redrive');
    const node = entry(['node', '-e', 'process.stdout.write(process.argv.slice(1).join(","))', 'a', 'b c']);
    expect(node.status).toBe(0);
    expect(node.stdout).toBe('a,b c');
    expect(entry(['node', '-e', 'process.exit(3)']).status).toBe(3);
  });
});
