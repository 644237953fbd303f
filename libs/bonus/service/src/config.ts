/** The bonus-ledger's environment (docs/configuration.md), parsed by one zod schema with embedded defaults. */
import { resolve } from 'node:path';
import { booleanFlag, catalogFile, platformEnvShape, port } from '@reelstream/config';
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
});

/** The read model's own file, next to the embedded back ends' one. */
export function readModelPath(dataDir: string): string {
  return resolve(dataDir, 'bonus-ledger-read.db');
}
