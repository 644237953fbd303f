import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** Where the PostgreSQL suites run when `PG_URL` is not set: the machine's own server (trust auth). */
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface PostgresForTests {
  /** The server's URL, for the notice. */
  server: string;
  /**
   * A URL to a schema of its own (`?schema=t_…`), created empty; `drop` removes it and all it holds.
   * Suites running at once on one server never see each other's tables.
   */
  schema(label: string): Promise<{ url: string; drop: () => Promise<void> }>;
}

function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The PostgreSQL server the suites run against: `PG_URL` (.ci/run sets it; unreachable, the suites
 * fail), else the machine's default server when one answers. Undefined when neither is there: the
 * caller prints a notice and registers nothing.
 */
export async function postgresForTests(): Promise<PostgresForTests | undefined> {
  const configured = process.env['PG_URL'];
  const url = configured ?? DEFAULT_URL;
  if (!(await reachable(url))) {
    if (configured) throw new Error(`PG_URL ${withoutCredentials(url)} is set but does not answer`);
    return undefined;
  }
  return {
    server: withoutCredentials(url),
    async schema(label) {
      const name = `t_${label.replace(/[^a-z0-9_]/g, '_')}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`CREATE SCHEMA ${name}`);
      } finally {
        await admin.end();
      }
      const withSchema = new URL(url);
      withSchema.searchParams.set('schema', name);
      return {
        url: withSchema.toString(),
        drop: async () => {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
          } finally {
            await client.end();
          }
        },
      };
    },
  };
}

/** The line a suite prints when it could not run against PostgreSQL. */
export function postgresNotice(what: string): string {
  return `[contract] ${what} NOT run against PostgreSQL: no server answers at ${DEFAULT_URL} and PG_URL is not set. No PostgreSQL ran here.\n`;
}
