/** The operator-sandbox app as it is run: env → config → server; SIGTERM stops it cleanly. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { DEMO_OPERATOR } from '@reelstream/platform-config';

const root = join(import.meta.dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'sandbox-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('apps/operator-sandbox', () => {
  it('serves the demo operator’s callback URL on its own SQLite file and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/operator-sandbox/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dir,
        SANDBOX_PORT: '0',
        SANDBOX_HOST: '127.0.0.1',
        SANDBOX_INITIAL_BALANCE: '50',
        OTEL_SDK_DISABLED: 'true',
        OPERATORS_JSON: '',
        OPERATORS_FILE: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const ready = await new Promise<{ url: string; callbackUrls: string[]; operators: string }>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.includes('"msg":"ready"'))
          resolve(JSON.parse(line) as { url: string; callbackUrls: string[]; operators: string });
      });
      void exited.then((code) => reject(new Error(`sandbox exited with ${code}`)));
    });
    expect(ready.operators).toBe('demo');
    expect(ready.callbackUrls).toEqual([`${ready.url}/wallet/demo`]);

    const body = JSON.stringify({
      command: 'bet',
      transactionId: '1',
      playerId: 'smoke',
      roundId: '2',
      providerId: 1,
      gameCode: 1,
      currency: 'EUR',
      amount: 1.25,
      isBonusBusy: false,
      bonusId: 0,
      timestamp: 1_777_000_000,
    });
    const response = await fetch(`${ready.url}/wallet/demo`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-request-signature': createHmac('sha256', DEMO_OPERATOR.signingSecret).update(body).digest('hex'),
      },
      body,
    });
    expect(await response.json()).toEqual({ balance: 48.75, statusCode: 'OK' });
    expect((await fetch(`${ready.url}/readyz`)).status).toBe(200);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
