/**
 * The CLI's heap limit (src/heap-limit.ts), through the package bin as an analyst runs it: the
 * command runs in a child whose V8 heap is limited to REELSTREAM_HEAP_MB (256 by default), unless
 * the caller set a limit of their own; a command that outgrows it ends with one line and exit 3.
 * A preload module (`node --import`, which the child inherits) writes each process's heap limit
 * to stderr, and on request fills the limited child's heap.
 */
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_HEAP_MB, heapExhaustion, heapLimitOf } from '../src/heap-limit.js';
import { writeDataFile, type DataFile } from './cli-harness.js';

const BIN = resolve(import.meta.dirname, '../bin/reelstream.mjs');
const execFileAsync = promisify(execFile);

const PRELOAD = `
import { getHeapStatistics } from 'node:v8';
process.stderr.write('heap-limit-mb ' + Math.round(getHeapStatistics().heap_size_limit / 2 ** 20) + ' limited=' + (process.env.REELSTREAM_HEAP_LIMITED ?? '0') + '\\n');
if (process.env.FILL_HEAP === '1' && process.env.REELSTREAM_HEAP_LIMITED === '1') {
  const kept = [];
  for (;;) kept.push(new Array(100_000).fill(kept.length));
}
`;

/** heap_size_limit is the old space's limit plus the young generation (up to 3 × 64 MB semi-spaces). */
const YOUNG_GENERATION_MB = 200;

let data: DataFile;
let preload: string;

beforeAll(async () => {
  data = await writeDataFile(10);
  preload = join(data.dir, 'heap-preload.mjs');
  writeFileSync(preload, PRELOAD);
}, 60_000);

afterAll(() => rmSync(data.dir, { recursive: true, force: true }));

interface BinRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Each process's heap limit in MB, with whether it was the limited child. */
  heaps: { mb: number; child: boolean }[];
}

async function bin(env: Record<string, string>, nodeOptions: readonly string[] = []): Promise<BinRun> {
  const args = [...nodeOptions, '--import', preload, BIN, 'replay', '--source', data.path, '--format', 'json'];
  const cleanEnv: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', REELSTREAM_HEAP_MB: '', ...env };
  delete cleanEnv['REELSTREAM_HEAP_LIMITED'];
  const result = await execFileAsync(process.execPath, [...args, '--operators', data.operatorsFile, '--no-progress'], {
    env: cleanEnv,
    maxBuffer: 64 * 2 ** 20,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
  const heaps = [...result.stderr.matchAll(/heap-limit-mb (\d+) limited=(\d)/g)].map((m) => ({
    mb: Number(m[1]),
    child: m[2] === '1',
  }));
  return { ...result, heaps };
}

describe('the CLI runs its command under a heap limit', () => {
  it(`by default in a child limited to ${DEFAULT_HEAP_MB} MB, with the same output as without a limit`, async () => {
    const limited = await bin({});
    expect(limited.code).toBe(0);
    const child = limited.heaps.find((heap) => heap.child);
    expect(child?.mb).toBeGreaterThanOrEqual(DEFAULT_HEAP_MB);
    expect(child?.mb).toBeLessThan(DEFAULT_HEAP_MB + YOUNG_GENERATION_MB);
    expect(limited.heaps).toHaveLength(2);

    const unlimited = await bin({ REELSTREAM_HEAP_MB: 'off' });
    expect(unlimited.code).toBe(0);
    expect(unlimited.heaps).toEqual([{ mb: expect.any(Number), child: false }]);
    expect(JSON.parse(limited.stdout)).toEqual(JSON.parse(unlimited.stdout));
  }, 120_000);

  it('REELSTREAM_HEAP_MB sets the limit; a limit in the node options is left alone', async () => {
    const chosen = await bin({ REELSTREAM_HEAP_MB: '512' });
    expect(chosen.code).toBe(0);
    expect(chosen.heaps.find((heap) => heap.child)?.mb).toBeGreaterThanOrEqual(512);
    expect(chosen.heaps.find((heap) => heap.child)?.mb).toBeLessThan(512 + YOUNG_GENERATION_MB);

    const own = await bin({}, ['--max-old-space-size=300']);
    expect(own.code).toBe(0);
    expect(own.heaps).toHaveLength(1);
    expect(own.heaps[0]?.child).toBe(false);
    expect(own.heaps[0]?.mb).toBeGreaterThanOrEqual(300);
    expect(own.heaps[0]?.mb).toBeLessThan(300 + YOUNG_GENERATION_MB);
  }, 120_000);

  it('a command that outgrows the limit ends with one line naming it, and exit 3', async () => {
    const run = await bin({ REELSTREAM_HEAP_MB: '64', FILL_HEAP: '1' });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'reelstream: the command needed more than its heap limit of 64 MB. Run it again with REELSTREAM_HEAP_MB=256 (or REELSTREAM_HEAP_MB=off), or narrow it with --from/--to.',
    );
  }, 120_000);

  it('refuses a REELSTREAM_HEAP_MB that is not a whole number of at least 64 MB, with exit 2 and nothing run', async () => {
    for (const value of ['32', 'lots', '100.5']) {
      const run = await bin({ REELSTREAM_HEAP_MB: value });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.heaps).toHaveLength(1);
      expect(run.stderr).toContain(
        `reelstream: REELSTREAM_HEAP_MB must be a whole number of MB of at least 64, or off (got "${value}")`,
      );
    }
  }, 120_000);
});

describe('heapLimitOf and heapExhaustion', () => {
  it('chooses the default, the variable, or nothing when the caller set a limit or this is the child', () => {
    expect(heapLimitOf([], {})).toBe(DEFAULT_HEAP_MB);
    expect(heapLimitOf([], { REELSTREAM_HEAP_MB: ' 1024 ' })).toBe(1024);
    expect(heapLimitOf([], { REELSTREAM_HEAP_MB: 'off' })).toBeUndefined();
    expect(heapLimitOf(['--max-old-space-size=2048'], {})).toBeUndefined();
    expect(heapLimitOf([], { NODE_OPTIONS: '--enable-source-maps --max-old-space-size=2048' })).toBeUndefined();
    expect(heapLimitOf([], { REELSTREAM_HEAP_LIMITED: '1' })).toBeUndefined();
    expect(() => heapLimitOf([], { REELSTREAM_HEAP_MB: '63' })).toThrow(/at least 64/);
  });

  it('reads an abort (a signal, or 134 through a shell) as the heap running out, and nothing else', () => {
    expect(heapExhaustion(null, 'SIGABRT', 128)).toMatch(/heap limit of 128 MB.*REELSTREAM_HEAP_MB=512/);
    expect(heapExhaustion(134, null, 128)).toMatch(/heap limit of 128 MB/);
    expect(heapExhaustion(0, null, 128)).toBeUndefined();
    expect(heapExhaustion(1, null, 128)).toBeUndefined();
    expect(heapExhaustion(null, 'SIGINT', 128)).toBeUndefined();
  });
});
