/**
 * `npm run test:mutation [-- --only <text>] [--workers <n>] [--no-baseline] [--keep]`: applies each
 * mutation of mutations.ts, one at a time, to a copy of the working tree and runs the jest projects
 * that guard it. A mutation some test fails on is killed; one every test passes on survived, and
 * then the run fails (exit 1), as it does when a pattern no longer matches exactly once.
 *
 * The copy holds the files git would see (tracked and untracked, not ignored), so uncommitted
 * work is what gets mutated; node_modules is hard-linked (`cp -al`), and as the workspace packages
 * are relative symlinks in it, the copy resolves @reelstream/* to its own, mutated, libs. The
 * original tree is never written to: a mutated file is replaced by rename, never written through.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { MUTATIONS, type Mutation } from './mutations.js';

const ROOT = join(import.meta.dirname, '../..');
/**
 * Left out of every run: 30,000 generated requests that take minutes on a busy machine and guard
 * none of the listed rules (they check the envelope, no 5xx, no event from a rejected request).
 */
const IGNORED_TESTS = ['/fuzz\\.int\\.spec\\.ts$'];
/** A jest run that takes longer than this is stuck, not slow. */
const RUN_LIMIT_MS = 20 * 60_000;

interface JestReport {
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

interface RunResult {
  exitCode: number | null;
  /** `file › test name` of every failed test; `file › (suite failed to run)` for a suite that did not load. */
  failed: string[];
  seconds: number;
}

/** The first line of a failure that says something (jest's messages start with colour codes and blank lines). */
function firstLine(message: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  const line =
    plain
      .split('\n')
      .map((text) => text.trim())
      .find((text) => text !== '' && !text.startsWith('●')) ?? '';
  return line.length > 140 ? `${line.slice(0, 140)}…` : line;
}

function occurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

/** Replaces the file by rename, so a hard link to another tree is never written through. */
function replaceFile(path: string, text: string): void {
  const temporary = `${path}.mutation-tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

function copyTree(target: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = join(ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree, not yet in the index
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(from, join(target, file), { verbatimSymlinks: true });
  }
  const linked = spawnSync('cp', ['-al', join(ROOT, 'node_modules'), join(target, 'node_modules')], {
    encoding: 'utf8',
  });
  if (linked.status !== 0) throw new Error(`cp -al node_modules failed: ${linked.stderr}`);
}

function runJest(tree: string, projects: readonly string[], workers: number): Promise<RunResult> {
  const started = performance.now();
  const output = join(tree, '.mutation-report.json');
  rmSync(output, { force: true });
  const args = [
    '--experimental-vm-modules',
    join(tree, 'node_modules/jest/bin/jest.js'),
    '--selectProjects',
    ...projects,
    '--json',
    `--outputFile=${output}`,
    `--maxWorkers=${workers}`,
    `--cacheDirectory=${join(tree, '.jest-cache')}`,
    '--silent',
    ...IGNORED_TESTS.map((pattern) => `--testPathIgnorePatterns=${pattern}`),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: tree,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    });
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
    const limit = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(limit);
      const seconds = Math.round((performance.now() - started) / 1_000);
      if (!existsSync(output))
        return reject(new Error(`jest wrote no report (exit ${exitCode}); its last output:\n${log.slice(-3_000)}`));
      const report = JSON.parse(readFileSync(output, 'utf8')) as JestReport;
      const failed = report.testResults.flatMap((suite) => {
        const file = relative(tree, suite.name);
        const tests = suite.assertionResults
          .filter((test) => test.status === 'failed')
          .map((test) => `${file} › ${test.fullName}  [${firstLine(test.failureMessages.join('\n'))}]`);
        return tests.length === 0 && suite.status === 'failed'
          ? [`${file} › (suite failed to run)  [${firstLine(suite.message)}]`]
          : tests;
      });
      resolve({ exitCode, failed, seconds });
    });
  });
}

function selected(only: readonly string[]): Mutation[] {
  if (only.length === 0) return [...MUTATIONS];
  const picked = MUTATIONS.filter((mutation) => only.some((text) => mutation.name.includes(text)));
  if (picked.length === 0)
    throw new Error(`no mutation's name contains ${only.map((text) => JSON.stringify(text)).join(' or ')}`);
  return picked;
}

/** The displayName of every jest project, as `project(import.meta.dirname, 'name')` declares it. */
function jestProjects(): Set<string> {
  const configs = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '*jest.config.mjs'],
    { cwd: ROOT, encoding: 'utf8' },
  )
    .stdout.split('\0')
    .filter(Boolean);
  return new Set(
    configs.flatMap((config) =>
      [...readFileSync(join(ROOT, config), 'utf8').matchAll(/project\(import\.meta\.dirname, '([^']+)'/g)].map(
        (match) => match[1] ?? '',
      ),
    ),
  );
}

/** Every pattern matches exactly once in the working tree and every project exists, or nothing runs. */
function checkPatterns(mutations: readonly Mutation[]): string[] {
  const known = jestProjects();
  return mutations.flatMap((mutation) => {
    const unknown = mutation.projects.filter((project) => !known.has(project));
    if (unknown.length > 0) return [`${mutation.name}: no jest project named ${unknown.join(', ')}`];
    const path = join(ROOT, mutation.file);
    if (!existsSync(path)) return [`${mutation.name}: ${mutation.file} does not exist`];
    const count = occurrences(readFileSync(path, 'utf8'), mutation.search);
    return count === 1
      ? []
      : [
          `${mutation.name}: ${JSON.stringify(mutation.search)} occurs ${count} times in ${mutation.file}, not once — the code moved: update scripts/mutation/mutations.ts`,
        ];
  });
}

const list = (lines: readonly string[], max = 12) =>
  [
    ...lines.slice(0, max).map((line) => `      ${line}`),
    ...(lines.length > max ? [`      … and ${lines.length - max} more`] : []),
  ].join('\n');

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string', multiple: true, default: [] },
      workers: { type: 'string', default: '2' },
      'no-baseline': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  });
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1) throw new Error('--workers must be a positive whole number');
  const mutations = selected(values.only);
  const broken = checkPatterns(mutations);
  if (broken.length > 0) {
    process.stderr.write(
      `mutations that cannot be applied as written:\n${broken.map((line) => `  ${line}`).join('\n')}\n`,
    );
    return 1;
  }

  const tree = mkdtempSync(join(tmpdir(), 'reelstream-mutation-'));
  try {
    process.stdout.write(`copying the working tree to ${tree} (node_modules hard-linked)\n`);
    copyTree(tree);
    const projects = [...new Set(mutations.flatMap((mutation) => mutation.projects))];
    if (!values['no-baseline']) {
      process.stdout.write(`baseline, unmutated: ${projects.join(', ')} …\n`);
      const baseline = await runJest(tree, projects, workers);
      if (baseline.exitCode !== 0) {
        process.stderr.write(
          `the unmutated tree fails (exit ${baseline.exitCode}); no mutation result would mean anything:\n${list(baseline.failed, 50)}\n`,
        );
        return 1;
      }
      process.stdout.write(`  green in ${baseline.seconds} s\n`);
    }

    const survivors: string[] = [];
    for (const [n, mutation] of mutations.entries()) {
      const path = join(tree, mutation.file);
      const original = readFileSync(path, 'utf8');
      process.stdout.write(
        `[${n + 1}/${mutations.length}] ${mutation.name}\n    ${mutation.file}: ${mutation.search}  →  ${mutation.replace}\n    jest: ${mutation.projects.join(', ')}\n`,
      );
      replaceFile(
        path,
        original.replace(mutation.search, () => mutation.replace),
      );
      let result: RunResult;
      try {
        result = await runJest(tree, mutation.projects, workers);
      } finally {
        replaceFile(path, original);
      }
      if (result.exitCode === 0) {
        survivors.push(mutation.name);
        process.stdout.write(`    SURVIVED (${result.seconds} s): every test passed\n`);
      } else if (result.failed.length > 0) {
        process.stdout.write(`    killed (${result.seconds} s) by ${result.failed.length}:\n${list(result.failed)}\n`);
      } else {
        throw new Error(
          `jest exited ${result.exitCode} on "${mutation.name}" without a failed test: look at ${tree} (use --keep)`,
        );
      }
    }
    process.stdout.write(
      `\n${mutations.length - survivors.length} of ${mutations.length} mutations killed${survivors.length > 0 ? `; survived:\n${survivors.map((name) => `  - ${name}`).join('\n')}` : ''}\n`,
    );
    return survivors.length === 0 ? 0 : 1;
  } finally {
    if (values.keep) process.stdout.write(`kept ${tree}\n`);
    else rmSync(tree, { recursive: true, force: true });
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
