/**
 * Readiness reports draining before the server closes: on SIGTERM a real HTTP server
 * run by runService answers `/readyz` 503 `draining` for SHUTDOWN_DRAIN_MS while it still serves
 * requests, then closes and the process exits 0.
 */
import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseEnv, shutdownEnv } from '@reelstream/platform-config';
import { closeGracefully, createHttpServer, DrainSignal, healthEndpoints } from '@reelstream/platform-http';
import { httpStatus } from '@reelstream/testing';
import { runService } from './run-service.js';

function serve(env: Record<string, string>) {
  const signals = new EventEmitter();
  const drain = new DrainSignal();
  const events: string[] = [];
  let exited: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => (exited = resolve));
  const listening = new Promise<number>((resolve) => {
    void runService(
      'gateway',
      async (runtime) => {
        const health = healthEndpoints(() => ({ ready: true }), drain);
        const server = createHttpServer((request, response) =>
          health(request, response, () => {
            response.writeHead(200, { 'content-type': 'text/plain' });
            response.end('served');
          }),
        );
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
        runtime.onStop('server', async () => {
          events.push('closing');
          await closeGracefully(server, 1_000);
        });
        resolve((server.address() as AddressInfo).port);
        return {};
      },
      { env: { OTEL_SDK_DISABLED: 'true', LOG_LEVEL: 'silent', ...env }, signals, drain, exit: (code) => exited(code) },
    );
  });
  return { signals, drain, events, exitCode, listening };
}

describe('draining on SIGTERM', () => {
  it('answers /readyz 503 draining for SHUTDOWN_DRAIN_MS while still serving, then closes and exits 0', async () => {
    // Long enough for the five requests below on a loaded machine (600 ms was not, at a load average of 16).
    const run = serve({ SHUTDOWN_DRAIN_MS: '2500' });
    const base = `http://127.0.0.1:${await run.listening}`;
    expect(await httpStatus(`${base}/readyz`)).toBe(200);

    const signalled = Date.now();
    run.signals.emit('SIGTERM');
    expect(await httpStatus(`${base}/readyz`)).toBe(503);
    const body = (await (await fetch(`${base}/readyz`)).json()) as { status: string };
    expect(body.status).toBe('draining');
    expect(await httpStatus(`${base}/healthz`)).toBe(200);
    expect(await httpStatus(`${base}/work`)).toBe(200);
    expect(run.events).toEqual([]);

    expect(await run.exitCode).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(2_500);
    expect(run.events).toEqual(['closing']);
    expect(await httpStatus(`${base}/work`)).toBe('refused');
  });

  it('closes at once with the default SHUTDOWN_DRAIN_MS of 0, still reporting draining while it stops', async () => {
    const run = serve({});
    const base = `http://127.0.0.1:${await run.listening}`;
    const signalled = Date.now();
    run.signals.emit('SIGTERM');
    expect(run.drain.draining).toBe(true);
    expect(await run.exitCode).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(500);
    expect(await httpStatus(`${base}/readyz`)).toBe('refused');
  });

  it('refuses a SHUTDOWN_DRAIN_MS that is not a whole number of milliseconds', () => {
    expect(() => parseEnv(shutdownEnv, { SHUTDOWN_DRAIN_MS: '5s' })).toThrow(ConfigError);
    expect(() => parseEnv(shutdownEnv, { SHUTDOWN_DRAIN_MS: '-1' })).toThrow(
      /SHUTDOWN_DRAIN_MS: must be a whole number/,
    );
    expect(parseEnv(shutdownEnv, {}).SHUTDOWN_DRAIN_MS).toBe(0);
  });
});
