/**
 * The sandbox as tests start it (its own tests, the conformance kit's, the dispatcher's): on a free
 * port of loopback, its SQLite file in a temp folder that `stop()` removes, every new player opening
 * with 100, no admin API and no added latency unless the test says otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperatorDirectory } from '@reelstream/platform-config';
import { parseOperatorsConfig, type OperatorConfigInput } from '@reelstream/contracts';
import {
  startOperatorSandbox,
  type OperatorSandbox,
  type OperatorSandboxConfig,
  type OperatorSandboxDeps,
} from '../src/index.js';

/** The configuration of a test sandbox whose database is `databasePath`. */
export function testSandboxConfig(
  databasePath: string,
  change: Partial<OperatorSandboxConfig> = {},
): OperatorSandboxConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    databasePath,
    autoCreateBalance: 100,
    synchronous: 'NORMAL',
    adminToken: undefined,
    latencyMs: 0,
    ...change,
  };
}

/** An operator in EUR named after its id, signing with `signingSecret`; `change` sets the rest. */
export function testOperator(
  id: string,
  signingSecret: string | string[],
  change: Partial<OperatorConfigInput> = {},
): OperatorConfigInput {
  return {
    id,
    name: id,
    apiToken: `${id}-api-token-0123456789`,
    callbackUrl: 'http://localhost/',
    signingSecret,
    currency: 'EUR',
    ...change,
  };
}

export const operatorDirectory = (operators: OperatorConfigInput[]): OperatorDirectory =>
  new OperatorDirectory(parseOperatorsConfig(operators));

/** A sandbox whose `stop()` also removes its temp folder. */
export interface TestSandbox extends OperatorSandbox {
  /** The temp folder of its database, for other files of the test. */
  readonly dir: string;
}

/** Starts a test sandbox with its database in a new temp folder named after `name`. */
export async function startTestSandbox(
  name: string,
  deps: OperatorSandboxDeps,
  change: Partial<OperatorSandboxConfig> = {},
): Promise<TestSandbox> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const sandbox = await startOperatorSandbox(deps, testSandboxConfig(join(dir, 'sandbox.db'), change)).catch(
    (error: unknown) => {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    },
  );
  return {
    ...sandbox,
    dir,
    stop: async () => {
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
