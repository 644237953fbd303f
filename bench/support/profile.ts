import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `BENCH_CPU_PROFILE_DIR=/tmp/prof npm run bench:e2e`: the spawned process writes V8 CPU profiles
 * to `/tmp/prof/<name>/` when it exits, one per thread (the largest is the main thread; open it in
 * Chrome DevTools or speedscope). How docs/performance.md's profiles were taken.
 * `SQL_CENSUS_FILE=/tmp/census npm run bench:e2e`: the process counts its SQLite statements and
 * transactions (bench/support/sql-census.mjs); the bench writes one census per phase.
 */
export function profileArgs(name: string): string[] {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  const census = process.env.SQL_CENSUS_FILE ? ['--import', join(import.meta.dirname, 'sql-census.mjs')] : [];
  return [...census, ...(dir ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, name)}`] : [])];
}

let marks = 0;

/**
 * With SQL_CENSUS_FILE set: the process writes its SQL census since the last mark to
 * `${SQL_CENSUS_FILE}.<n>` and starts anew; `before` names what that census covered.
 */
export function censusMark(pid: number | undefined, before: string): void {
  if (!process.env.SQL_CENSUS_FILE || pid === undefined) return;
  process.kill(pid, 'SIGUSR2');
  console.log(`SQL census of ${before}: ${process.env.SQL_CENSUS_FILE}.${marks++}`);
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux): per operation it is
 * steadier than wall time when the machine is shared. Undefined where /proc is missing.
 */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1_000) / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/** `getconf CLK_TCK` on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
