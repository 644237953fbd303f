/**
 * `/readyz` with a data directory that fills up or turns read-only: a real tmpfs, mounted, filled and
 * remounted read-only (as root, which CI is). Where mounting is not allowed the cases say so and
 * check only what needs no mount.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataDirs, processDataDirs, startHealthServer, type HealthServer } from '../src/index.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'reelstream-data-dir-'));
const run = (...args: string[]) => spawnSync(args[0] as string, args.slice(1), { encoding: 'utf8' });
const mounted = run('mount', '-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint).status === 0;
if (!mounted)
  process.stderr.write(
    `NOTICE: data-dirs.int.spec: cannot mount a tmpfs here (not root?): the full and read-only disk cases are skipped\n`,
  );
const withMount = mounted ? it : it.skip;

afterAll(() => {
  if (mounted) run('umount', mountPoint);
  rmSync(mountPoint, { recursive: true, force: true });
});

describe('DataDirs', () => {
  it('finds nothing wrong with a writable directory, and names one that is missing', () => {
    const dirs = new DataDirs({ intervalMs: 0, minFreeBytes: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'reelstream-writable-'));
    const unwatch = dirs.watch(dir);
    expect(dirs.problem()).toBeUndefined();
    dirs.watch(join(dir, 'gone'));
    expect(dirs.problem()).toBe(`data directory ${join(dir, 'gone')}: missing (ENOENT)`);
    unwatch();
    rmSync(dir, { recursive: true });
  });

  withMount('reports a full disk, then a read-only one, naming the directory and the cause', () => {
    const dirs = new DataDirs({ intervalMs: 0, minFreeBytes: 64 * 1024 });
    dirs.watch(mountPoint);
    expect(dirs.problem()).toBeUndefined();
    writeFileSync(join(mountPoint, 'filler'), Buffer.alloc(24 * 1024 * 1024 - 32 * 1024));
    expect(dirs.problem()).toMatch(
      new RegExp(`^data directory ${mountPoint}: disk full \\(\\d+ KiB free, under 64 KiB\\)$`),
    );
    rmSync(join(mountPoint, 'filler'));
    expect(dirs.problem()).toBeUndefined();
    expect(run('mount', '-o', 'remount,ro', mountPoint).status).toBe(0);
    try {
      expect(dirs.problem()).toBe(`data directory ${mountPoint}: read-only file system (EROFS)`);
    } finally {
      run('mount', '-o', 'remount,rw', mountPoint);
    }
    expect(dirs.problem()).toBeUndefined();
  });

  it('checks at most once per interval', () => {
    let now = 0;
    const dirs = new DataDirs({ intervalMs: 5_000, now: () => now });
    const dir = mkdtempSync(join(tmpdir(), 'reelstream-interval-'));
    dirs.watch(dir);
    expect(dirs.problem()).toBeUndefined();
    rmSync(dir, { recursive: true });
    now = 4_999;
    expect(dirs.problem()).toBeUndefined();
    now = 5_000;
    expect(dirs.problem()).toMatch(/missing \(ENOENT\)$/);
  });
});

describe('/readyz of a process whose data directory turns read-only', () => {
  let health: HealthServer;
  let unwatch: () => void;
  beforeAll(async () => {
    health = await startHealthServer({ port: 0, host: '127.0.0.1' }, () => ({ ready: true }));
    unwatch = processDataDirs.watch(mountPoint);
  });
  afterAll(async () => {
    unwatch();
    await health.close();
  });

  withMount(
    'answers 503 naming the directory and the cause, and 200 again once it is writable',
    async () => {
      const readyz = async () => {
        const response = await fetch(`http://127.0.0.1:${health.port}/readyz`);
        return { status: response.status, body: (await response.json()) as unknown };
      };
      expect((await readyz()).status).toBe(200);
      expect(run('mount', '-o', 'remount,ro', mountPoint).status).toBe(0);
      try {
        // A fixed wait on purpose: the process's check is reused for 5 s; that age must pass before it sees read-only.
        await new Promise((resolve) => setTimeout(resolve, 5_100));
        expect(await readyz()).toEqual({
          status: 503,
          body: { status: 'unavailable', reason: `data directory ${mountPoint}: read-only file system (EROFS)` },
        });
      } finally {
        run('mount', '-o', 'remount,rw', mountPoint);
      }
      // A fixed wait on purpose: the failed check is reused for 5 s too; that age must pass before it sees writable.
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      expect((await readyz()).status).toBe(200);
    },
    20_000,
  );
});
