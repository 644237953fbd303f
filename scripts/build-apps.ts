/**
 * `npm run build` (or `npx nx build <app>`): bundles each app's `src/main.ts` with esbuild into
 * `dist/apps/<app>/main.js` (ESM, Node 22 and later), so `node dist/apps/<app>/main.js` runs it without tsx,
 * and each command-line tool beside it: `dist/apps/wallet-dispatcher/redrive.js` (the wallet
 * re-drive), `dist/apps/platform/kafka-topics.js` (the Kafka topics) and
 * `dist/apps/reelstream-cli/main.js` (the `reelstream` CLI). The image (docker/Dockerfile) runs these.
 *
 * - The workspace's own packages (`@reelstream/*`, TypeScript sources) are bundled; every other
 *   package stays external and is loaded from node_modules at run time, as installed (native
 *   better-sqlite3, and express/got loaded through Node's own loader, where OpenTelemetry's
 *   instrumentation patches them; undici, the dispatcher's operator client, is not patched: it
 *   makes its spans itself).
 * - Code splitting keeps the `await import()`s of the mains lazy: express is loaded after
 *   telemetry started (so its instrumentation patches them), not hoisted to the top of main.js.
 * - Sources find their run-time files relative to themselves (`import.meta.dirname`). In the
 *   bundle each such expression is rewritten to the bundle's directory plus the source's own
 *   path in the repository, and the files they read (config/catalog.json, the game page) are
 *   copied there under the same relative paths, so the bundle works wherever it is copied.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

export const REPOSITORY_ROOT = resolve(import.meta.dirname, '..');

/** Each app and the repository files its code reads at run time. */
export const APP_RUNTIME_FILES: Readonly<Record<string, readonly string[]>> = {
  platform: ['config/catalog.json', 'libs/game/service/public', 'libs/gateway/service/console'],
  gateway: ['config/catalog.json', 'libs/gateway/service/console'],
  'bonus-ledger': ['config/catalog.json'],
  'game-server': ['config/catalog.json', 'libs/game/service/public'],
  'wallet-dispatcher': [],
  'operator-sandbox': [],
  'reelstream-cli': ['config/catalog.json'],
};
export const APPS = Object.keys(APP_RUNTIME_FILES);

/**
 * Files of development dependencies an app serves at run time, copied into the build where its
 * source looks for them first, so the image needs no such package: the API reference's browser
 * bundle (`standaloneJsPath` in libs/gateway/service/src/openapi/api-reference.ts).
 */
const SCALAR_STANDALONE = {
  resolve: () =>
    join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js'),
  to: 'libs/gateway/service/src/openapi/scalar-standalone.js',
};
export const APP_PACKAGE_FILES: Readonly<Record<string, readonly (typeof SCALAR_STANDALONE)[]>> = {
  platform: [SCALAR_STANDALONE],
  gateway: [SCALAR_STANDALONE],
};

/**
 * The command-line tools bundled beside an app's main (`src/<name>.ts` → `<name>.js`), sharing its
 * chunks: the wallet re-drive and the Kafka topics tool.
 */
export const APP_TOOLS: Readonly<Record<string, readonly string[]>> = {
  'wallet-dispatcher': ['redrive'],
  platform: ['kafka-topics'],
};

export interface BuiltApp {
  app: string;
  /** `main.js`. */
  entry: string;
  /** Each tool's bundle by name (`redrive` → `…/redrive.js`). */
  tools: Readonly<Record<string, string>>;
  bytes: number;
}

/** Bare imports other than the workspace's own packages are left to Node at run time. */
const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@reelstream/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** `import.meta.dirname|filename|url` of a workspace source → the same place under the bundle's directory. */
function relocateImportMeta(root: string): Plugin {
  return {
    name: 'relocate-import-meta',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta') || args.path.includes('/node_modules/')) return undefined;
        const file = relative(root, args.path);
        const directory = dirname(file);
        const contents = source.replace(/import\.meta\.(dirname|filename|url)\b/g, (_match, property: string) => {
          if (property === 'dirname') return `(import.meta.dirname + ${JSON.stringify(`/${directory}`)})`;
          if (property === 'filename') return `(import.meta.dirname + ${JSON.stringify(`/${file}`)})`;
          return `new URL(${JSON.stringify(`./${file}`)}, import.meta.url).href`;
        });
        return { contents, loader: 'ts' };
      });
    },
  };
}

export async function buildApp(app: string, options: { outDir?: string; root?: string } = {}): Promise<BuiltApp> {
  const root = options.root ?? REPOSITORY_ROOT;
  const files = APP_RUNTIME_FILES[app];
  if (!files) throw new Error(`unknown app ${app}: one of ${APPS.join(', ')}`);
  const outDir = join(options.outDir ?? join(root, 'dist'), 'apps', app);
  await rm(outDir, { recursive: true, force: true });
  const tools = APP_TOOLS[app] ?? [];
  const source = (name: string) => join(root, 'apps', app, 'src', `${name}.ts`);
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(['main', ...tools].map((name) => [name, source(name)])),
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    chunkNames: '[name]-[hash]',
    logLevel: 'warning',
    metafile: true,
    plugins: [thirdPartyExternal, relocateImportMeta(root)],
  });
  for (const file of files) await cp(join(root, file), join(outDir, file), { recursive: true });
  for (const file of APP_PACKAGE_FILES[app] ?? []) await cp(file.resolve(), join(outDir, file.to));
  // The .js files are ES modules wherever the directory is copied to.
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify({ type: 'module', private: true }, null, 2)}\n`);
  const bytes = Object.entries(result.metafile.outputs).reduce(
    (sum, [path, output]) => sum + (path.endsWith('.js') ? output.bytes : 0),
    0,
  );
  return {
    app,
    entry: join(outDir, 'main.js'),
    tools: Object.fromEntries(tools.map((name) => [name, join(outDir, `${name}.js`)])),
    bytes,
  };
}

export async function buildApps(
  apps: readonly string[] = APPS,
  options: { outDir?: string; root?: string } = {},
): Promise<BuiltApp[]> {
  if (options.outDir) await mkdir(options.outDir, { recursive: true });
  return Promise.all(apps.map((app) => buildApp(app, options)));
}

async function cli(argv: readonly string[]): Promise<number> {
  const outAt = argv.indexOf('--outdir');
  const outDir = outAt >= 0 ? argv[outAt + 1] : undefined;
  const apps = argv.filter((arg, index) => !arg.startsWith('--') && (outAt < 0 || index !== outAt + 1));
  const unknown = apps.filter((app) => !APPS.includes(app));
  if (unknown.length > 0 || (outAt >= 0 && !outDir)) {
    process.stderr.write(
      `usage: build-apps [${APPS.join('|')} …] [--outdir DIR]${unknown.length > 0 ? `\nunknown app: ${unknown.join(', ')}` : ''}\n`,
    );
    return 2;
  }
  const started = performance.now();
  const built = await buildApps(apps.length > 0 ? apps : APPS, outDir ? { outDir: resolve(outDir) } : {});
  for (const { entry, tools, bytes } of built) {
    process.stdout.write(`${relative(process.cwd(), entry)}  ${(bytes / 1024).toFixed(0)} KiB (all chunks)\n`);
    for (const tool of Object.values(tools)) process.stdout.write(`${relative(process.cwd(), tool)}\n`);
  }
  process.stdout.write(`built ${built.length} app(s) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await cli(process.argv.slice(2));
