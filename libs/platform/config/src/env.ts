import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { ReelstreamError } from '@reelstream/contracts';
import { MAX_WORKER_ID } from '@reelstream/platform-ids';
import { SHARD_COUNTS, shardCountProblem } from '@reelstream/platform-eventsourcing';

/**
 * Environment parsing for every app (docs/configuration.md): one zod schema per app, errors that name the
 * variable, defaults that run on the embedded back ends.
 */
export class ConfigError extends ReelstreamError {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(
      'CONFIGURATION_INVALID',
      `invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      {
        retriable: false,
      },
    );
  }
}

export type Env = Record<string, string | undefined>;

/** Parses `env` with `schema`; throws `ConfigError` with one `NAME: problem` line per bad variable. */
export function parseEnv<Schema extends z.ZodType>(schema: Schema, env: Env = process.env): z.output<Schema> {
  // Empty strings mean "unset": `FOO= npm start` should fall back to the default, not fail.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const key = issue.path.map(String).join('.') || '(environment)';
      const value = typeof issue.path[0] === 'string' ? present[issue.path[0]] : undefined;
      return `${key}: ${issue.message}${value === undefined ? '' : ` (got ${JSON.stringify(value)})`}`;
    }),
  );
}

/** A TCP port; 0 asks the OS for a free one (tests). */
export const port = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a port number' })
    .int({ error: 'must be a port number' })
    .min(0, { error: 'must be a port number 0–65535' })
    .max(65_535, { error: 'must be a port number 0–65535' })
    .default(fallback);

/** The interface a server listens on; every interface when unset. */
export const listenHost = () => z.string().min(1).optional();

/** How many shards a worker is split into (docs/adr/0045-outbox-and-relay-split-into-shards.md): 1, not split, by default. */
export const shardCount = () =>
  z.coerce
    .number({ error: `must be one of ${SHARD_COUNTS.join(', ')}` })
    .refine((count) => shardCountProblem(count) === undefined, { error: `must be one of ${SHARD_COUNTS.join(', ')}` })
    .default(1);

export const positiveInt = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a positive integer' })
    .int({ error: 'must be a positive integer' })
    .positive({ error: 'must be a positive integer' })
    .default(fallback);

/**
 * Express's `trust proxy`: which hops before this process are proxies whose `X-Forwarded-For` names
 * the client (the address rate limits count by). A number of hops, or a comma-separated list of
 * addresses, CIDR blocks or `loopback` / `linklocal` / `uniquelocal`. Unset: none, the peer is the
 * client. `true` (every hop) is refused: any client could then name itself a new address each time.
 */
const trustProxy = () =>
  z
    .string()
    .refine((value) => !['true', '*'].includes(value.trim().toLowerCase()), {
      error: 'must name the proxies (a hop count or addresses), not trust every hop',
    })
    .transform((value) =>
      /^\d+$/.test(value.trim())
        ? Number(value.trim())
        : value
            .split(',')
            .map((entry) => entry.trim())
            .filter(Boolean),
    )
    .optional();

/** The variables of the rate limit of requests without valid credentials, per client address. */
export const unauthenticatedRateLimitEnvShape = {
  UNAUTHENTICATED_RATE_LIMIT_PER_SECOND: positiveInt(20),
  UNAUTHENTICATED_RATE_LIMIT_BURST: positiveInt(100),
  TRUST_PROXY: trustProxy(),
};

export const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .default(fallback);

const nonNegativeInt = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a whole number ≥ 0' })
    .int({ error: 'must be a whole number ≥ 0' })
    .min(0, { error: 'must be a whole number ≥ 0' })
    .default(fallback);

/**
 * `SHUTDOWN_DRAIN_MS` (default 0): on SIGTERM/SIGINT the process first answers `/readyz` with 503
 * `draining` for this long, still serving, so load balancers and Service endpoints drop it before it
 * closes (the Kubernetes manifests set 5000). Read by `runService` (`@reelstream/platform-runtime`).
 */
const shutdownDrainMs = nonNegativeInt(0);
export const shutdownEnv = z.object({ SHUTDOWN_DRAIN_MS: shutdownDrainMs });

const backendUrl = (what: string) =>
  what === 'bus'
    ? z.string().refine((url) => /^(sqlite:.+|kafka:\/\/.+)$/.test(url), {
        error: 'must be sqlite:<path>, or kafka://host:port[,host:port…]',
      })
    : z.string().refine((url) => /^(sqlite:.+|esdb(\+discover)?:\/\/.+|postgres(ql)?:\/\/.+)$/.test(url), {
        error: 'must be sqlite:<path>, postgres://user@host:5432/database or esdb://host:port[?tls=false]',
      });

/** The variables every app reads (docs/configuration.md). Spread into an app's own `z.object`. */
export const platformEnvShape = {
  DATA_DIR: z.string().default('./data'),
  EVENT_STORE_URL: backendUrl('event store').optional(),
  BUS_URL: backendUrl('bus').optional(),
  WORKER_ID: z.coerce
    .number({ error: `must be an integer 0–${MAX_WORKER_ID}` })
    .int({ error: `must be an integer 0–${MAX_WORKER_ID}` })
    .min(0)
    .max(MAX_WORKER_ID)
    .optional(),
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, { error: 'must be 1–64 characters of A–Z a–z 0–9 _ . -' })
    .optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Unset: `pretty` when stdout is a terminal, else `json` (read by the logger, `@reelstream/platform-telemetry`). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /** Read by `runService` (`shutdownEnv`): milliseconds of `/readyz` 503 `draining` before closing. */
  SHUTDOWN_DRAIN_MS: shutdownDrainMs,
};

export interface Backends {
  dataDir: string;
  eventStoreUrl: string;
  busUrl: string;
}

/** Fills the back-end URLs from `DATA_DIR` when they are not given. */
export function resolveBackends(config: {
  DATA_DIR: string;
  EVENT_STORE_URL?: string | undefined;
  BUS_URL?: string | undefined;
}): Backends {
  const embedded = `sqlite:${config.DATA_DIR.replace(/\/+$/, '')}/reelstream.db`;
  return {
    dataDir: config.DATA_DIR,
    eventStoreUrl: config.EVENT_STORE_URL ?? embedded,
    busUrl: config.BUS_URL ?? embedded,
  };
}

/** The repository's `config/catalog.json`, found from this file so any working directory works. */
export const DEFAULT_CATALOG_FILE = fileURLToPath(new URL('../../../../config/catalog.json', import.meta.url));

/** `CATALOG_FILE` of a service's environment: the path of the catalog, the repository's by default (read by `@reelstream/game-adapters`). */
export const catalogFile = () => z.string().min(1).default(DEFAULT_CATALOG_FILE);
