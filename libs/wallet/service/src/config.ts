/** The dispatcher's environment (docs/configuration.md) and its operators. */
import {
  demoOperators,
  loadOperators,
  OperatorDirectory,
  parseEnv,
  platformEnvShape,
  port,
  positiveInt,
  resolveBackends,
  type Backends,
  type Env,
} from '@reelstream/platform-config';
import { httpUrl } from '@reelstream/contracts';
import { defaultBulkheadLimits, DEFAULT_KEY_CONCURRENCY, type BulkheadLimits } from '@reelstream/wallet-application';
import * as z from 'zod';

/** Per-operator overrides of the bulkhead defaults: `{"casino_b": {"maxInFlight": 4, "openMs": 10000}}`. */
const bulkheadOverrides = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(
      z.string().min(1),
      z.strictObject({
        maxInFlight: z.number().int().positive().optional(),
        maxQueueWaitMs: z.number().int().nonnegative().optional(),
        failureThreshold: z.number().int().positive().optional(),
        openMs: z.number().int().positive().optional(),
      }),
    ),
  )
  .optional();

export const dispatcherEnv = z.object({
  ...platformEnvShape,
  /** `/healthz` and `/readyz`; 0 = any free port. */
  HEALTH_PORT: port(9091),
  /** Where the demo operator's wallet is (when no OPERATORS_JSON/OPERATORS_FILE is given). */
  SANDBOX_URL: httpUrl.default('http://localhost:8082'),
  /** Open connections per operator host. */
  CALLBACK_MAX_SOCKETS: positiveInt(64),
  /** Messages of one bus partition in handlers at once, never two of one player. */
  WALLET_KEY_CONCURRENCY: positiveInt(DEFAULT_KEY_CONCURRENCY),
  /** Callbacks to one operator in flight at once (its bulkhead). */
  OPERATOR_MAX_IN_FLIGHT: positiveInt(defaultBulkheadLimits.maxInFlight),
  /** How long a callback beyond the in-flight limit waits for a slot before it is refused (not sent). */
  OPERATOR_QUEUE_WAIT_MS: positiveInt(defaultBulkheadLimits.maxQueueWaitMs),
  /** Consecutive failed callbacks (no reply, time-out, HTTP error) that open an operator's circuit. */
  OPERATOR_CIRCUIT_FAILURES: positiveInt(defaultBulkheadLimits.failureThreshold),
  /** How long an open circuit refuses that operator's callbacks before one probe goes through. */
  OPERATOR_CIRCUIT_OPEN_MS: positiveInt(defaultBulkheadLimits.openMs),
  /** Per-operator overrides of the three above, as JSON. */
  OPERATOR_BULKHEADS_JSON: bulkheadOverrides,
  /** How often the replica holding the re-drive lease looks for dead-lettered wins that are due. */
  WIN_REDRIVE_TICK_MS: positiveInt(1_000),
  /** The re-drive lease's ttl: a crashed holder's schedule is taken over after it. */
  LEASE_TTL_MS: positiveInt(10_000),
});
type DispatcherEnv = z.output<typeof dispatcherEnv>;

export interface WalletDispatcherConfig {
  healthPort: number;
  /** Interface of the health server. Default all. */
  healthHost?: string;
  maxSockets: number;
  /** Default 32 (`DEFAULT_KEY_CONCURRENCY`). */
  keyConcurrency?: number;
  /** Bulkhead limits of operators without their own. Default `defaultBulkheadLimits`. */
  bulkhead?: BulkheadLimits;
  /** Per-operator bulkhead limits (each field falls back to `bulkhead`). */
  operatorBulkheads?: Readonly<Record<string, Partial<BulkheadLimits>>>;
  /** How often the scheduled re-drive looks for due wins. Default 1 s. */
  redriveTickMs?: number;
  /** The re-drive lease's ttl. Default 10 s. */
  leaseTtlMs?: number;
}

export interface DispatcherSettings {
  env: DispatcherEnv;
  backends: Backends;
  config: WalletDispatcherConfig;
  operators: OperatorDirectory;
  operatorsSource: string;
}

export function dispatcherSettingsFromEnv(source: Env): DispatcherSettings {
  const env = parseEnv(dispatcherEnv, source);
  const loaded = loadOperators(source, () => demoOperators(env.SANDBOX_URL));
  return {
    env,
    backends: resolveBackends(env),
    config: {
      healthPort: env.HEALTH_PORT,
      maxSockets: env.CALLBACK_MAX_SOCKETS,
      keyConcurrency: env.WALLET_KEY_CONCURRENCY,
      bulkhead: {
        maxInFlight: env.OPERATOR_MAX_IN_FLIGHT,
        maxQueueWaitMs: env.OPERATOR_QUEUE_WAIT_MS,
        failureThreshold: env.OPERATOR_CIRCUIT_FAILURES,
        openMs: env.OPERATOR_CIRCUIT_OPEN_MS,
      },
      operatorBulkheads: env.OPERATOR_BULKHEADS_JSON ?? {},
      redriveTickMs: env.WIN_REDRIVE_TICK_MS,
      leaseTtlMs: env.LEASE_TTL_MS,
    },
    operators: new OperatorDirectory(loaded.operators),
    operatorsSource: loaded.source,
  };
}
