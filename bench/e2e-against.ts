/**
 * `npm run bench:e2e:against -- <commit> [--rounds N] [--wallet-apart]`: did a free spin get cheaper?
 * The same client (this checkout's `bench:e2e --free-only --embedded-only`, warm-up included) drives
 * this checkout's platform and `<commit>`'s in turns, N rounds (default 5), so both meet the same
 * machine at nearly the same moments: a shared machine's speed drifts by a fifth within an hour,
 * more than most changes to the code. Prints each run, then the medians and their ratio.
 *
 * `<commit>` is checked out in a git worktree under the temp folder and installed there (`npm ci`,
 * a minute or two); `REUSE_WORKTREE=<dir>` takes one already installed instead. The commit's
 * platform must start as this checkout's topologies start it (`apps/platform/src/main.ts`, its
 * banner, the same variables): commits from late November 2026 on do.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const USAGE = 'usage: npm run bench:e2e:against -- <commit> [--rounds N] [--wallet-apart]';
const args = process.argv.slice(2);
const commit = args.find((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--rounds');
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;
if (commit === undefined || !Number.isInteger(rounds) || rounds < 1) {
  console.error(USAGE);
  process.exit(2);
}
const walletApart = args.includes('--wallet-apart');
const repository = join(import.meta.dirname, '..');
const run = (command: string, commandArgs: string[], cwd: string) =>
  execFileSync(command, commandArgs, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

const reused = process.env['REUSE_WORKTREE'];
const worktree = reused ?? join(mkdtempSync(join(tmpdir(), 'bench-against-')), 'checkout');
if (reused === undefined) {
  const sha = run('git', ['rev-parse', '--verify', `${commit}^{commit}`], repository).trim();
  console.log(`checking out ${sha} in ${worktree} and installing it (npm ci)…`);
  run('git', ['worktree', 'add', '--detach', worktree, sha], repository);
  run('npm', ['ci', '--no-audit', '--no-fund'], worktree);
} else if (!existsSync(join(worktree, 'node_modules'))) {
  console.error(`REUSE_WORKTREE ${worktree} has no node_modules: run npm ci there first`);
  process.exit(2);
}

interface Figures {
  free: number;
  demo: number;
  /** The platform's own CPU per free spin with the wallet apart (the operator's wallet left out). */
  platform?: number;
}

/** One `bench:e2e` run of the free spins on the platform of `root` (undefined: this checkout's). */
function benchOnce(root: string | undefined): Figures {
  const benchArgs = ['--import', 'tsx', 'bench/e2e.bench.ts', '--free-only', '--embedded-only'];
  const result = spawnSync(process.execPath, walletApart ? [...benchArgs, '--wallet-apart'] : benchArgs, {
    cwd: repository,
    env: { ...process.env, ...(root === undefined ? {} : { BENCH_PLATFORM_ROOT: root }) },
    encoding: 'utf8',
  });
  const cpu = /platform CPU per spin \(user \+ system\)\s+free ([\d.]+) ms, demo ([\d.]+) ms/.exec(result.stdout);
  if (result.status !== 0 || !cpu)
    throw new Error(`bench:e2e failed (${result.status}):\n${result.stdout}${result.stderr}`);
  const apart = /CPU per free spin by process \(ms\)\s+platform ([\d.]+)/.exec(result.stdout);
  return {
    free: Number(cpu[1]),
    demo: Number(cpu[2]),
    ...(apart ? { platform: Number(apart[1]) } : {}),
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const label = { theirs: `${commit}`.slice(0, 12), ours: 'this checkout' };
const runs: Record<'theirs' | 'ours', Figures[]> = { theirs: [], ours: [] };
const line = (who: 'theirs' | 'ours', figures: Figures) =>
  `  ${label[who].padEnd(14)} free ${figures.free.toFixed(2)} ms, demo ${figures.demo.toFixed(2)} ms` +
  (figures.platform === undefined ? '' : `, the platform's own ${figures.platform.toFixed(2)} ms`);
try {
  console.log(
    `platform CPU per free spin, ${rounds} rounds, each ${label.theirs} then this checkout${walletApart ? ', the wallet apart' : ''}:`,
  );
  for (let round = 1; round <= rounds; round++) {
    for (const who of ['theirs', 'ours'] as const) {
      const figures = benchOnce(who === 'theirs' ? worktree : undefined);
      runs[who].push(figures);
      console.log(line(who, figures));
    }
  }
  const summary = (pick: (figures: Figures) => number | undefined, what: string) => {
    const theirs = median(runs.theirs.map(pick).filter((value) => value !== undefined));
    const ours = median(runs.ours.map(pick).filter((value) => value !== undefined));
    console.log(
      `  median ${what.padEnd(26)} ${label.theirs} ${theirs.toFixed(2)} ms, this checkout ${ours.toFixed(2)} ms: ratio ${(ours / theirs).toFixed(3)}`,
    );
  };
  summary((figures) => figures.free, 'CPU per free spin');
  summary((figures) => figures.demo, 'CPU per demo spin');
  if (walletApart) summary((figures) => figures.platform, "the platform's own per spin");
} finally {
  if (reused === undefined) {
    run('git', ['worktree', 'remove', '--force', worktree], repository);
    rmSync(join(worktree, '..'), { recursive: true, force: true });
  }
}
