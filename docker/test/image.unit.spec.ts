/**
 * The image's files as data (docker/Dockerfile, docker/entrypoint.sh, .dockerignore) and the
 * bundles it ships: every name the entrypoint accepts runs a bundle that `npm run build` produces,
 * and those bundles run. (`npm run test:image` builds and runs the image itself.)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { APPS, APP_TOOLS, buildApps, REPOSITORY_ROOT, type BuiltApp } from '../../scripts/build-apps.js';

const dockerfile = readFileSync(join(REPOSITORY_ROOT, 'docker', 'Dockerfile'), 'utf8');
const entrypoint = join(REPOSITORY_ROOT, 'docker', 'entrypoint.sh');
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
  it('builds on BASE_IMAGE, by default the official Node 20 bookworm-slim image, in every stage', () => {
    expect(dockerfile).toMatch(/^ARG BASE_IMAGE=node:20-bookworm-slim$/m);
    const froms = dockerfile.match(/^FROM .*$/gm) ?? [];
    expect(froms.length).toBeGreaterThanOrEqual(3);
    for (const from of froms) expect(from).toMatch(/^FROM (\$\{BASE_IMAGE\}|[a-z-]+) AS [a-z-]+$/);
  });

  it('runs as the numeric non-root user with only production dependencies and the bundles', () => {
    const runtime = runtimeStage();
    expect(runtime[0]).toBe('${BASE_IMAGE} AS runtime');
    expect(runtime).toContain('USER 10001:10001');
    expect(runtime).toContain('COPY --from=production-dependencies /app/node_modules ./node_modules');
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime.filter((line) => line.startsWith('COPY . '))).toEqual([]);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    // The data directory belongs to the user; the rest of the root filesystem may be read-only.
    expect(runtime.join('\n')).toMatch(/chown 10001:10001 \/data/);
    expect(runtime).toContain('VOLUME ["/data"]');
    expect(runtime.join('\n')).toMatch(/DATA_DIR=\/data/);
  });

  it('installs dependencies from the manifests alone, so an unchanged lock file reuses that layer', () => {
    const stages = dockerfile.split(/^FROM /m);
    const dependencies = stages.find((stage) => stage.startsWith('${BASE_IMAGE} AS dependencies')) ?? '';
    expect(dependencies).toContain('COPY --from=manifests /manifests/ ./');
    expect(dependencies).toContain('npm ci');
    expect(dependencies).not.toMatch(/^COPY \. /m);
  });

  it('leaves node_modules, dist, data and the git directory out of the build context', () => {
    const ignored = readFileSync(join(REPOSITORY_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['**/node_modules', 'dist', 'data', '.git', 'tmp']) expect(ignored).toContain(entry);
  });
});

describe('docker/entrypoint.sh and the bundles it runs', () => {
  let buildDir: string;
  let built: BuiltApp[];
  let fakeBin: string;

  beforeAll(async () => {
    mkdirSync(join(REPOSITORY_ROOT, 'tmp'), { recursive: true });
    // Inside the repository, so the bundles find node_modules as dist/ does.
    buildDir = mkdtempSync(join(REPOSITORY_ROOT, 'tmp', 'image-build-'));
    built = await buildApps(APPS, { outDir: buildDir });
    // A `node` that prints what it was asked to run: the entrypoint's choice, without /app.
    fakeBin = join(buildDir, 'bin');
    mkdirSync(fakeBin);
    writeFileSync(join(fakeBin, 'node'), '#!/bin/sh\nprintf "%s\\n" "$@"\n');
    chmodSync(join(fakeBin, 'node'), 0o755);
  });
  afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

  const entry = (args: string[], env: Record<string, string> = {}) =>
    spawnSync('sh', [entrypoint, ...args], {
      encoding: 'utf8',
      env: { PATH: `${fakeBin}:/usr/bin:/bin`, ...env },
    });
  /** /app/dist/apps/… → the same file of this test's build. */
  const builtFile = (imagePath: string) => join(buildDir, relative('/app/dist', imagePath));

  it('builds every app and every command-line tool', () => {
    expect(built.map(({ app }) => app).sort()).toEqual([...APPS].sort());
    for (const app of built) {
      expect(existsSync(app.entry)).toBe(true);
      for (const tool of APP_TOOLS[app.app] ?? []) expect(existsSync(app.tools[tool] ?? '')).toBe(true);
    }
    for (const path of Object.values(TOOLS)) expect(existsSync(join(buildDir, 'apps', path))).toBe(true);
  });

  it('runs the app named by the first argument, or by REELSTREAM_APP, with the other arguments', () => {
    for (const app of APPS) {
      const result = entry([app, '--flag', 'a b']);
      expect(result.status).toBe(0);
      const [bundle, ...rest] = result.stdout.trimEnd().split('\n');
      expect(bundle).toBe(`/app/dist/apps/${app}/main.js`);
      expect(rest).toEqual(['--flag', 'a b']);
      expect(existsSync(builtFile(bundle ?? ''))).toBe(true);
    }
    for (const [tool, path] of Object.entries(TOOLS)) {
      const result = entry([tool, '--list']);
      expect(result.stdout.trimEnd().split('\n')).toEqual([`/app/dist/apps/${path}`, '--list']);
    }
    expect(entry([], { REELSTREAM_APP: 'gateway' }).stdout.trimEnd()).toBe('/app/dist/apps/gateway/main.js');
    expect(entry(['node', 'dist/apps/gateway/main.js']).stdout.trimEnd()).toBe('dist/apps/gateway/main.js');
  });

  it('refuses an unknown or missing app with its usage and exit code 64', () => {
    for (const args of [['nonsense'], []]) {
      const result = entry(args);
      expect(result.status).toBe(64);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('usage: IMAGE <app>');
    }
  });

  it('ships command-line bundles that run without tsx', () => {
    const run = (path: string, args: string[]) =>
      spawnSync(process.execPath, [join(buildDir, 'apps', path), ...args], { encoding: 'utf8', cwd: buildDir });
    const cli = run(TOOLS['reelstream'] ?? '', ['--help']);
    expect(cli.status).toBe(0);
    expect(`${cli.stdout}${cli.stderr}`).toContain('usage: reelstream <command>');
    const topics = run(TOOLS['kafka-topics'] ?? '', ['nonsense']);
    expect(`${topics.stdout}${topics.stderr}`).toContain('usage: kafka:topics');
    const redrive = run(TOOLS['redrive'] ?? '', ['--nonsense']);
    expect(redrive.status).not.toBe(0);
    expect(`${redrive.stdout}${redrive.stderr}`).toContain('usage: npm run wallet:redrive');
  });
});
