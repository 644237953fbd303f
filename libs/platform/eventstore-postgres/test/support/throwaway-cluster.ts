/**
 * A PostgreSQL server of its own for a test: a throwaway cluster of this machine's PostgreSQL
 * binaries (initdb in a temporary directory, trust authentication, its own port), started, stopped,
 * crashed and removed by the test.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@reelstream/testing';

/** The binaries of the machine's PostgreSQL, or undefined when it has none. */
export function postgresBinaries(): string | undefined {
  const found = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const dir = found.status === 0 ? found.stdout.trim() : '';
  return dir !== '' && existsSync(join(dir, 'initdb')) ? dir : undefined;
}

/** PostgreSQL refuses to run as root: the clusters then run as the `postgres` user. */
const asRoot = process.getuid?.() === 0;

export class ThrowawayCluster {
  readonly dataDir: string;
  readonly url: string;

  constructor(
    private readonly bin: string,
    private readonly home: string,
    readonly port: number,
  ) {
    this.dataDir = join(home, 'data');
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres?schema=events`;
  }

  static async create(bin: string, label: string): Promise<ThrowawayCluster> {
    const home = mkdtempSync(join(tmpdir(), `pg-${label}-`));
    chmodSync(home, 0o700);
    if (asRoot) {
      const { uid, gid } = userIds('postgres');
      chownSync(home, uid, gid);
    }
    const cluster = new ThrowawayCluster(bin, home, await freePort());
    cluster.run('initdb', ['--pgdata', cluster.dataDir, '--username=postgres', '--auth=trust', '--no-sync']);
    return cluster;
  }

  run(tool: string, args: readonly string[]): string {
    const command = join(this.bin, tool);
    return asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8', cwd: this.home })
      : execFileSync(command, args, { encoding: 'utf8', cwd: this.home });
  }

  start(): void {
    const options = `-p ${this.port} -k ${this.home} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.run('pg_ctl', [
      '--pgdata',
      this.dataDir,
      '--options',
      options,
      '--log',
      join(this.home, 'log'),
      '-w',
      'start',
    ]);
  }

  stop(): void {
    this.run('pg_ctl', ['--pgdata', this.dataDir, '-m', 'fast', '-w', 'stop']);
  }

  /** Stops it as a crash would: every connection dropped at once, no checkpoint; the next start recovers from the WAL. */
  crash(): void {
    this.run('pg_ctl', ['--pgdata', this.dataDir, '-m', 'immediate', '-w', 'stop']);
  }

  /** What the refusal tells an operator to run, on the stopped server. */
  setEpoch(epoch: bigint): void {
    this.run('pg_resetwal', [`--epoch=${epoch}`, `--pgdata=${this.dataDir}`]);
  }

  remove(): void {
    try {
      this.run('pg_ctl', ['--pgdata', this.dataDir, '-m', 'immediate', 'stop']);
    } catch {
      // Not running.
    }
    rmSync(this.home, { recursive: true, force: true });
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
