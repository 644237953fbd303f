/** The sandbox's environment (docs/configuration.md) and the operators whose callbacks it accepts. */
import {
  booleanFlag,
  ConfigError,
  loadOperators,
  OperatorDirectory,
  demoOperators,
  parseEnv,
  platformEnvShape,
  port,
  type Env,
} from '@reelstream/platform-config';
import * as z from 'zod';

export const sandboxEnv = z.object({
  ...platformEnvShape,
  SANDBOX_PORT: port(8082),
  /**
   * Loopback by default: the admin API sets balances and faults, and is open unless SANDBOX_ADMIN_TOKEN
   * is set; any other address needs SANDBOX_ADMIN_TOKEN (the sandbox refuses to start without it).
   */
  SANDBOX_HOST: z.string().min(1).default('127.0.0.1'),
  /** Default `${DATA_DIR}/operator-sandbox.db`. */
  SANDBOX_DB: z.string().min(1).optional(),
  /** Players seen for the first time get an account with SANDBOX_INITIAL_BALANCE; false: they are ERR_NOT_AUTHENTICATED. */
  SANDBOX_AUTO_CREATE_PLAYERS: booleanFlag(true),
  SANDBOX_INITIAL_BALANCE: z.coerce.number({ error: 'must be a number' }).min(0).default(1_000),
  SANDBOX_SYNCHRONOUS: z.enum(['NORMAL', 'FULL']).default('NORMAL'),
  SANDBOX_ADMIN_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  /** A latency fault on every callback from the start (benchmarks, demos of a slow operator). */
  SANDBOX_LATENCY_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0).default(0),
});

/** A bind address only this machine reaches: `localhost`, 127.0.0.0/8 or ::1. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface OperatorSandboxConfig {
  port: number;
  host: string;
  databasePath: string;
  /** Opening balance of auto-created accounts (currency units); undefined: no auto-created accounts. */
  autoCreateBalance: number | undefined;
  synchronous: 'NORMAL' | 'FULL';
  adminToken: string | undefined;
  latencyMs: number;
}

export function sandboxConfigFromEnv(env: Env): {
  config: OperatorSandboxConfig;
  operators: OperatorDirectory;
  operatorsSource: string;
} {
  const parsed = parseEnv(sandboxEnv, env);
  if (!isLoopbackHost(parsed.SANDBOX_HOST) && parsed.SANDBOX_ADMIN_TOKEN === undefined)
    throw new ConfigError([
      `SANDBOX_ADMIN_TOKEN: required when SANDBOX_HOST is not a loopback address (got ${JSON.stringify(parsed.SANDBOX_HOST)}): the admin API sets balances and faults`,
    ]);
  const config: OperatorSandboxConfig = {
    port: parsed.SANDBOX_PORT,
    host: parsed.SANDBOX_HOST,
    databasePath: parsed.SANDBOX_DB ?? `${parsed.DATA_DIR.replace(/\/+$/, '')}/operator-sandbox.db`,
    autoCreateBalance: parsed.SANDBOX_AUTO_CREATE_PLAYERS ? parsed.SANDBOX_INITIAL_BALANCE : undefined,
    synchronous: parsed.SANDBOX_SYNCHRONOUS,
    adminToken: parsed.SANDBOX_ADMIN_TOKEN,
    latencyMs: parsed.SANDBOX_LATENCY_MS,
  };
  const loaded = loadOperators(env, () => demoOperators(`http://localhost:${config.port}`));
  return { config, operators: new OperatorDirectory(loaded.operators), operatorsSource: loaded.source };
}
