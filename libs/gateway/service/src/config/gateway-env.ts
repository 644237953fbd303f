/**
 * The gateway's environment (docs/configuration.md), parsed by one zod schema. Defaults run on the embedded
 * back ends: `npm start` needs no variable at all.
 */
import { resolve } from 'node:path';
import { httpUrl } from '@reelstream/contracts';
import { DEFAULT_LEDGER_TIMEOUT_MS } from '@reelstream/bonus-client';
import {
  catalogFile,
  demoOperators,
  listenHost,
  loadOperators,
  parseEnv,
  platformEnvShape,
  port,
  positiveInt,
  unauthenticatedRateLimitEnvShape,
  type Env,
  type LoadedOperators,
} from '@reelstream/platform-config';
import type { RateLimitConfig } from '@reelstream/platform-http';
import * as z from 'zod';
import { duration } from './duration.js';

export const DEFAULT_SESSION_TTL_MS = 4 * 3_600_000;
const DEFAULT_BODY_LIMIT_BYTES = 32 * 1024;

export const gatewayEnv = z.object({
  ...platformEnvShape,
  GATEWAY_PORT: port(8080),
  GATEWAY_HOST: listenHost(),
  GAME_PORT: port(8081),
  SANDBOX_PORT: port(8082),
  /** `{launch_host}` of launch URLs; `http://localhost:${GAME_PORT}` when unset. */
  LAUNCH_BASE_URL: httpUrl
    .refine((url) => !url.includes('?') && !url.includes('#'), {
      error: 'must be a base URL without query or fragment',
    })
    .optional(),
  /** How long a launch session lives: seconds, or a number with a unit (`4h`, `30m`). */
  SESSION_TTL: duration(DEFAULT_SESSION_TTL_MS),
  /** How long a register/cancel/read waits for the bonus-ledger before answering 503. */
  LEDGER_TIMEOUT_MS: positiveInt(DEFAULT_LEDGER_TIMEOUT_MS),
  /** Per-operator token bucket: sustained requests per second and the burst above it. */
  RATE_LIMIT_PER_SECOND: positiveInt(50),
  RATE_LIMIT_BURST: positiveInt(100),
  /** Per-operator budget of campaign players: a campaign of N players takes N; refilled per second, up to the burst. */
  CAMPAIGN_PLAYERS_PER_SECOND: positiveInt(50),
  CAMPAIGN_PLAYERS_BURST: positiveInt(10_000),
  /** Per client address: requests without valid credentials (`TRUST_PROXY` says which address is the client's). */
  ...unauthenticatedRateLimitEnvShape,
  BODY_LIMIT_BYTES: positiveInt(DEFAULT_BODY_LIMIT_BYTES),
  CATALOG_FILE: catalogFile(),
  OPERATORS_JSON: z.string().optional(),
  OPERATORS_FILE: z.string().optional(),
  /** Where the gateway's own read model file (the reconciliation lists) is. Default: DATA_DIR. */
  READ_MODEL_DIR: z.string().min(1).optional(),
  /** The secret the reconciliation lists' cursors are sealed with; unset: each operator's API token digest. */
  CURSOR_SECRET: z.string().min(32, { error: 'CURSOR_SECRET must be at least 32 characters' }).max(512).optional(),
});
export type GatewayEnv = z.output<typeof gatewayEnv>;

/** What the gateway runs with, independent of where it came from. */
export interface GatewayConfig {
  /** 0 = any free port. */
  port: number;
  host?: string;
  /** Without a trailing slash. */
  launchBaseUrl: string;
  sessionTtlMs: number;
  ledgerTimeoutMs: number;
  rateLimit: RateLimitConfig;
  /** The campaign players' budget of each operator. Default 50 players a second, 10,000 at once. */
  campaignRateLimit?: RateLimitConfig;
  /** Requests without valid credentials, per client address. Unset: not limited (the app always sets it). */
  unauthenticatedRateLimit?: RateLimitConfig;
  /** Express's `trust proxy`: the proxies whose `X-Forwarded-For` names the client. Unset: none. */
  trustProxy?: number | string[];
  bodyLimitBytes: number;
  /** How long `POST /v1/wallet/dead-letters/{transactionId}/redrive` waits for the dispatcher. Default 30 s. */
  redriveTimeoutMs?: number;
  /** The reconciliation lists' read model file; unset: in memory (projected again from the log at each start). */
  readModelFile?: string;
  /** Seals the lists' cursors; unset: each operator's API token digest. */
  cursorSecret?: string;
  /** Rows one list request reads at most while a time filter skips some (then it answers a cursor). Default 2,000. */
  listRowBound?: number;
}

/** The gateway's read model file in `dir`: one per instance id (replicas on one data dir may also share one). */
function gatewayReadModelPath(dir: string, instanceId: string | undefined): string {
  return resolve(dir, `gateway-read-${instanceId ?? 'gateway'}.db`);
}

export function parseGatewayEnv(env: Env = process.env): GatewayEnv {
  return parseEnv(gatewayEnv, env);
}

export function gatewayConfigOf(env: GatewayEnv): GatewayConfig {
  const config: GatewayConfig = {
    port: env.GATEWAY_PORT,
    launchBaseUrl: (env.LAUNCH_BASE_URL ?? `http://localhost:${env.GAME_PORT}`).replace(/\/+$/, ''),
    sessionTtlMs: env.SESSION_TTL,
    ledgerTimeoutMs: env.LEDGER_TIMEOUT_MS,
    rateLimit: { perSecond: env.RATE_LIMIT_PER_SECOND, burst: env.RATE_LIMIT_BURST },
    campaignRateLimit: { perSecond: env.CAMPAIGN_PLAYERS_PER_SECOND, burst: env.CAMPAIGN_PLAYERS_BURST },
    unauthenticatedRateLimit: {
      perSecond: env.UNAUTHENTICATED_RATE_LIMIT_PER_SECOND,
      burst: env.UNAUTHENTICATED_RATE_LIMIT_BURST,
    },
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    readModelFile: gatewayReadModelPath(env.READ_MODEL_DIR ?? env.DATA_DIR, env.INSTANCE_ID),
  };
  if (env.TRUST_PROXY !== undefined) config.trustProxy = env.TRUST_PROXY;
  if (env.GATEWAY_HOST !== undefined) config.host = env.GATEWAY_HOST;
  if (env.CURSOR_SECRET !== undefined) config.cursorSecret = env.CURSOR_SECRET;
  return config;
}

/** `OPERATORS_JSON` / `OPERATORS_FILE`, else the demo operator wired to the sandbox on `SANDBOX_PORT`. */
export function loadGatewayOperators(env: Env, parsed: GatewayEnv): LoadedOperators {
  return loadOperators(env, () => demoOperators(`http://localhost:${parsed.SANDBOX_PORT}`));
}
