/**
 * Readiness of the directories a process writes its data to (the embedded back ends' SQLite files,
 * a read model). A full or read-only disk makes every write fail while the process still answers
 * HTTP, so a pod would stay in rotation and fail every spin: `/readyz` answers 503 instead, naming
 * the directory and the cause. Each directory is checked by writing, syncing and removing a small
 * file, and by its free space, at most once per `intervalMs` (probes come every few seconds).
 */
import { closeSync, fsyncSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DataDirsOptions {
  /** A directory with less free space than this is full. Default 16 MiB. */
  minFreeBytes?: number;
  /** A check's answer is reused for this long. Default 5 s. */
  intervalMs?: number;
  now?: () => number;
}

const PROBE_FILE = '.reelstream-write-check';

export class DataDirs {
  private readonly dirs = new Set<string>();
  private readonly minFreeBytes: number;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private last: { at: number; problem: string | undefined } | undefined;

  constructor(options: DataDirsOptions = {}) {
    this.minFreeBytes = options.minFreeBytes ?? 16 * 2 ** 20;
    this.intervalMs = options.intervalMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /** Adds a directory to check; the next check includes it. Returns what stops watching it (a stopped service). */
  watch(dir: string): () => void {
    this.dirs.add(dir);
    this.last = undefined;
    return () => {
      this.dirs.delete(dir);
      this.last = undefined;
    };
  }

  /** Why the process cannot write its data (`data directory /x: read-only file system (EROFS)`), or undefined. */
  problem(): string | undefined {
    const now = this.now();
    if (this.last && now - this.last.at < this.intervalMs) return this.last.problem;
    const problem = [...this.dirs].map((dir) => this.problemOf(dir)).find((found) => found !== undefined);
    this.last = { at: now, problem };
    return problem;
  }

  private problemOf(dir: string): string | undefined {
    try {
      const stats = statfsSync(dir);
      const free = stats.bavail * stats.bsize;
      if (free < this.minFreeBytes)
        return `data directory ${dir}: disk full (${Math.floor(free / 1024)} KiB free, under ${Math.floor(this.minFreeBytes / 1024)} KiB)`;
      const file = join(dir, PROBE_FILE);
      const fd = openSync(file, 'w');
      try {
        writeSync(fd, 'ok');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      rmSync(file, { force: true });
      return undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const cause = {
        EROFS: 'read-only file system',
        ENOSPC: 'disk full',
        EACCES: 'permission denied',
        ENOENT: 'missing',
      }[code as 'EROFS'];
      return `data directory ${dir}: ${cause ?? (error as Error).message}${code ? ` (${code})` : ''}`;
    }
  }
}

/** The process's data directories, read by every `/readyz` of the process unless given others. */
export const processDataDirs = new DataDirs();
