/** The bonus-ledger's environment (docs/configuration.md), parsed by one zod schema with embedded defaults. */
import { resolve } from 'node:path';
import { booleanFlag, catalogFile, platformEnvShape, port, positiveInt, shardCount } from '@reelstream/platform-config';
import * as z from 'zod';

export const ledgerEnv = z.object({
  ...platformEnvShape,
  /** `/healthz` and `/readyz`; 0 picks a free port. */
  HEALTH_PORT: port(9090),
  CATALOG_FILE: catalogFile(),
  /** Where the demo operator's wallet is (only used when no operators are configured). */
  SANDBOX_PORT: port(8082),
  /** Drop the read model and project it again from the log at start. */
  READ_MODEL_REBUILD: booleanFlag(false),
  /** Where this replica's own read model file is. Default: DATA_DIR. */
  READ_MODEL_DIR: z.string().min(1).optional(),
  /** Another replica takes the relay or the expiry timer over this long after its holder stopped renewing. */
  LEASE_TTL_MS: positiveInt(10_000),
  /**
   * How many shards the relay is split into, each under its own lease: the replicas share them by their
   * share of the ledger's command group (docs/adr/0045-outbox-and-relay-split-into-shards.md). 1: one relay.
   */
  BONUS_RELAY_SHARDS: shardCount(),
});

/**
 * This replica's read model file (`READ_MODEL_DIR`, default `DATA_DIR`): one per instance id, so
 * replicas on one data dir each keep their own and find it again after a restart.
 */
export function readModelPath(dir: string, instanceId: string): string {
  return resolve(dir, `bonus-ledger-read-${instanceId}.db`);
}
