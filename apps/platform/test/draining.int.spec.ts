/**
 * Draining on a real SIGTERM: the gateway process, sent SIGTERM by its supervisor,
 * answers `/readyz` 503 `draining` for SHUTDOWN_DRAIN_MS while it still answers API requests, then
 * closes its port and exits 0, so a Kubernetes rolling update resets no connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { httpStatus } from '@reelstream/testing';
import { AppProcess } from './support/app-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'reelstream-drain-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the gateway on SIGTERM with SHUTDOWN_DRAIN_MS', () => {
  it('reports draining while it still serves, then closes and exits 0', async () => {
    const gateway = new AppProcess('gateway', join('apps', 'gateway', 'src', 'main.ts'), {
      DATA_DIR: dataDir,
      GATEWAY_PORT: '0',
      OTEL_SDK_DISABLED: 'true',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: '1500',
    });
    try {
      const { url } = (await gateway.ready()) as { url: string };
      expect(await httpStatus(`${url}/readyz`)).toBe(200);

      const signalled = Date.now();
      gateway.child.kill('SIGTERM');
      await gateway.waitForLine((line) => line.includes('"msg":"draining"'), 5_000);
      const readiness = await fetch(`${url}/readyz`);
      expect([readiness.status, ((await readiness.json()) as { status: string }).status]).toEqual([503, 'draining']);
      // An API request during the drain is still answered (here: refused for want of a token).
      expect(await httpStatus(`${url}/v1/bonus-calls/1`)).toBe(401);
      expect(await httpStatus(`${url}/healthz`)).toBe(200);

      expect(await gateway.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1_500);
      expect(await httpStatus(`${url}/healthz`)).toBe('refused');
      const messages = gateway.lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages.indexOf('draining')).toBeLessThan(messages.indexOf('stopping'));
    } finally {
      await gateway.kill('SIGKILL');
    }
  });
});
