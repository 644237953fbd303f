import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { freePort } from './net.js';

/** A PgBouncer in transaction mode in front of a PostgreSQL server, as CloudNativePG's Pooler runs it. */
export interface PgBouncerForTests {
  /** `url` (a URL of the server) with its host and port replaced by the pooler's. */
  through(url: string): string;
  /** The pooler's connections to the server right now (`SHOW SERVERS` of its admin console). */
  serverConnections(): Promise<number>;
  /** Kills it (SIGKILL: every client and server connection dropped at once) and starts it again on its port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Server connections per database and user: what CloudNativePG's `default_pool_size` sets. */
  poolSize: number;
}

/** Debian's pgbouncer package puts it in /usr/sbin, which is not on every user's PATH. */
export function findPgBouncer(): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin'];
  return dirs.map((dir) => join(dir, 'pgbouncer')).find((candidate) => existsSync(candidate));
}

/**
 * Starts `pgbouncer` (transaction pooling, trust authentication) for the server of `serverUrl`
 * (host, port and user; every database is passed through). As root it runs as the `postgres` user,
 * since PgBouncer refuses to run as root. Resolves once it accepts connections.
 */
export async function startPgBouncer(
  binary: string,
  serverUrl: string,
  options: PgBouncerOptions,
): Promise<PgBouncerForTests> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username) || 'postgres';
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'pgbouncer-'));
  const config = await writeConfig(dir, server, user, port, options);
  const asRoot = process.getuid?.() === 0;
  let log = '';
  const launch = async () => {
    const started = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), config], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    started.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4_000)));
    await acceptingConnections(started, admin, () => log);
    return started;
  };
  const admin = { connectionString: `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/pgbouncer` };
  const exit = async (running: ChildProcess) => {
    if (running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  let child = await launch();
  return {
    through(url) {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    async serverConnections() {
      const client = new pg.Client(admin);
      await client.connect();
      try {
        return (await client.query('SHOW SERVERS')).rows.length;
      } finally {
        await client.end();
      }
    },
    async restart() {
      await exit(child);
      child = await launch();
    },
    async stop() {
      await exit(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** pgbouncer.ini and its users file in `dir`, readable by the user PgBouncer runs as. */
async function writeConfig(dir: string, server: URL, user: string, port: number, options: PgBouncerOptions) {
  await chmod(dir, 0o755);
  const config = join(dir, 'pgbouncer.ini');
  await writeFile(join(dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  await writeFile(
    config,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || '5432'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize}`,
      'max_client_conn = 500',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  return config;
}

async function acceptingConnections(child: ChildProcess, admin: pg.ClientConfig, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}: ${log()}`);
    const client = new pg.Client(admin);
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SHOW VERSION');
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`pgbouncer did not accept connections in 10 s: ${log()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
