/** The dispatcher's environment (DESIGN §7) and its operators. */
import { demoOperators, loadOperators, OperatorDirectory, parseEnv, platformEnvShape, port, positiveInt, resolveBackends, type Backends, type Env } from '@reelstream/config';
import { httpUrl } from '@reelstream/contracts';
import * as z from 'zod';

export const dispatcherEnv = z.object({
  ...platformEnvShape,
  /** `/healthz` and `/readyz`; 0 = any free port. */
  HEALTH_PORT: port(9091),
  /** Where the demo operator's wallet is (when no OPERATORS_JSON/OPERATORS_FILE is given). */
  SANDBOX_URL: httpUrl.default('http://localhost:8082'),
  /** Open connections per operator host. */
  CALLBACK_MAX_SOCKETS: positiveInt(64),
});
export type DispatcherEnv = z.output<typeof dispatcherEnv>;

export interface WalletDispatcherConfig {
  healthPort: number;
  /** Interface of the health server. Default all. */
  healthHost?: string;
  maxSockets: number;
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
    config: { healthPort: env.HEALTH_PORT, maxSockets: env.CALLBACK_MAX_SOCKETS },
    operators: new OperatorDirectory(loaded.operators),
    operatorsSource: loaded.source,
  };
}
