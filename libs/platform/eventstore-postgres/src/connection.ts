import pg from 'pg';
import { ReelstreamError } from '@reelstream/contracts';

/** What a `postgres://` URL says beyond what the `pg` client reads from it itself. */
export interface PostgresUrl {
  /** The URL the `pg` client connects with: the given one less this adapter's own parameters. */
  connectionString: string;
  /** The schema of the tables (every statement names it); `public` when the URL names none. Created when missing. */
  schema: string;
  /** Most connections one store keeps open. Default 10. */
  poolSize: number;
  /** How often a waiting subscription looks for events made visible by a transaction that sent no notification. Default 100 ms. */
  pollIntervalMs: number;
  /**
   * Where the one `LISTEN` connection goes: the URL's own server (default), another `host[:port]`
   * of the same database (`listen=…`: the primary itself when the URL names a pooler in transaction
   * mode, which cannot keep a LISTEN), or nowhere (`listen=off`: subscriptions poll).
   */
  listen: { host: string; port: string | undefined } | 'same' | 'off';
  /** The server address without credentials, for error messages and logs. */
  address: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const OWN_PARAMETERS = ['schema', 'poolSize', 'pollIntervalMs', 'listen'] as const;
const LISTEN_HOST = /^(?<host>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(?<port>[0-9]{1,5}))?$/;

class InvalidPostgresUrlError extends ReelstreamError {
  override readonly name = 'InvalidPostgresUrlError';
  constructor(message: string) {
    super('CONFIGURATION_INVALID', message, { retriable: false });
  }
}

function positiveInteger(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(value) || value < 1)
    throw new InvalidPostgresUrlError(
      `EVENT_STORE_URL: ${name} must be a positive integer, got ${JSON.stringify(raw)}`,
    );
  return value;
}

/**
 * `postgres://user[:password]@host[:port]/database[?schema=name&poolSize=n&pollIntervalMs=n&listen=host:port&…]`
 * (or `postgresql://`); other query parameters (`sslmode`, `application_name`, …) go to the client.
 */
export function parsePostgresUrl(raw: string): PostgresUrl {
  if (!/^postgres(ql)?:\/\//.test(raw))
    throw new InvalidPostgresUrlError('EVENT_STORE_URL: a PostgreSQL URL starts with postgres:// or postgresql://');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidPostgresUrlError('EVENT_STORE_URL: not a URL (postgres://user@host:5432/database)');
  }
  if (url.hostname === '') throw new InvalidPostgresUrlError('EVENT_STORE_URL: the PostgreSQL URL names no host');
  if (url.pathname.length <= 1)
    throw new InvalidPostgresUrlError(
      'EVENT_STORE_URL: the PostgreSQL URL names no database (postgres://host/database)',
    );
  const schema = url.searchParams.get('schema') ?? 'public';
  if (!SCHEMA_NAME.test(schema))
    throw new InvalidPostgresUrlError(
      `EVENT_STORE_URL: schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*), got ${JSON.stringify(schema)}`,
    );
  const poolSize = positiveInteger(url, 'poolSize', 10);
  const pollIntervalMs = positiveInteger(url, 'pollIntervalMs', 100);
  const listen = listenOf(url.searchParams.get('listen'));
  const address = `${url.protocol}//${url.host}${url.pathname}`;
  for (const name of OWN_PARAMETERS) url.searchParams.delete(name);
  return { connectionString: url.toString(), schema, poolSize, pollIntervalMs, listen, address };
}

function listenOf(raw: string | null): PostgresUrl['listen'] {
  if (raw === null) return 'same';
  if (raw === 'off') return 'off';
  const match = LISTEN_HOST.exec(raw);
  if (!match?.groups?.['host'])
    throw new InvalidPostgresUrlError(
      `EVENT_STORE_URL: listen must be off or a host[:port] of the same database, got ${JSON.stringify(raw)}`,
    );
  return { host: match.groups['host'], port: match.groups['port'] };
}

/**
 * The configuration of the LISTEN connection (undefined with `listen=off`): the URL's, or the same
 * database, credentials and TLS parameters on the `listen` host.
 */
export function listenConfig(url: PostgresUrl): pg.ClientConfig | undefined {
  if (url.listen === 'off') return undefined;
  if (url.listen === 'same') return { connectionString: url.connectionString };
  const direct = new URL(url.connectionString);
  direct.hostname = url.listen.host;
  direct.port = url.listen.port ?? '';
  return { connectionString: direct.toString() };
}

export function openPool(url: PostgresUrl): pg.Pool {
  const pool = new pg.Pool({ connectionString: url.connectionString, max: url.poolSize, idleTimeoutMillis: 30_000 });
  // An idle connection the server closed (restart, failover) must not crash the process: the pool
  // drops it and the next query opens another.
  pool.on('error', () => undefined);
  // Nor one lost while checked out between two queries of a transaction (a pooler pod killed): pg emits
  // that on the client, which has no other listener then. The next query on it fails, the transaction
  // is given up and its client released as broken, so the pool replaces it.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** Runs `work` in one transaction on one connection of the pool; rolls back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: unknown;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError;
    }
    throw error;
  } finally {
    // A connection whose rollback failed is in an unknown state: the pool closes it instead of reusing it.
    client.release(broken instanceof Error ? broken : undefined);
  }
}

/** The SQLSTATE of a server error, or undefined for any other error. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
