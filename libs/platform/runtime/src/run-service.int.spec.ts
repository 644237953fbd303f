/**
 * runService as a main.ts uses it, with the process's edges (signals, exit, stderr) handed in:
 * start-up failures say what to fix and exit 2 or 1, a signal drains in reverse order and exits 0.
 */
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { port, resolveBackends } from '@reelstream/platform-config';
import * as z from 'zod';
import { runService, type ReadyFields, type ServiceRuntime } from './run-service.js';
import { openLeaseHolderDeps } from './service-deps.js';

const dir = mkdtempSync(join(tmpdir(), 'runtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  signals: EventEmitter;
  stderr: string[];
  exitCode: Promise<number>;
}

function run(env: Record<string, string>, start: (runtime: ServiceRuntime) => Promise<ReadyFields>): Run {
  const signals = new EventEmitter();
  const stderr: string[] = [];
  let exited: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => (exited = resolve));
  void runService('gateway', start, {
    env: { OTEL_SDK_DISABLED: 'true', LOG_LEVEL: 'silent', ...env },
    signals,
    stderr: { write: (text: string) => stderr.push(text) },
    exit: (code) => exited(code),
    hostname: 'test-host',
  });
  return { signals, stderr, exitCode };
}

async function eventuallyOpened(opened: string[]): Promise<void> {
  for (let waited = 0; opened.length === 0; waited += 20) {
    if (waited > 20_000) throw new Error('the back ends were not opened within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('runService', () => {
  it('exits 2 naming the variable when the configuration is bad, and stops what had started', async () => {
    const stopped: string[] = [];
    const { stderr, exitCode } = run({ GATEWAY_PORT: 'eighty' }, async (runtime) => {
      runtime.onStop('early part', async () => void stopped.push('early part'));
      runtime.parseEnv(z.object({ GATEWAY_PORT: port(8080) }));
      return {};
    });
    expect(await exitCode).toBe(2);
    expect(stderr.join('')).toBe(
      'gateway did not start: invalid configuration:\n  - GATEWAY_PORT: must be a port number (got "eighty")\n',
    );
    expect(stopped).toEqual(['early part']);
  });

  it('exits 2 naming LOG_LEVEL, WORKER_ID or a bad back-end URL before starting anything', async () => {
    const started: string[] = [];
    const start = async (runtime: ServiceRuntime) => {
      started.push('start');
      await runtime.openBackends(resolveBackends({ DATA_DIR: dir, BUS_URL: 'sqlite:./x.db?partitions=lots' }));
      return {};
    };
    const badLevel = run({ LOG_LEVEL: 'loud' }, start);
    expect(await badLevel.exitCode).toBe(2);
    expect(badLevel.stderr.join('')).toMatch(/LOG_LEVEL must be one of debug, info, warn, error, silent; got "loud"/);
    const badWorker = run({ WORKER_ID_BASE: '30' }, start);
    expect(await badWorker.exitCode).toBe(2);
    expect(badWorker.stderr.join('')).toMatch(/POD_INDEX: is required with WORKER_ID_BASE/);
    expect(started).toEqual([]);
    const badUrl = run({}, start);
    expect(await badUrl.exitCode).toBe(2);
    expect(badUrl.stderr.join('')).toMatch(
      /^gateway did not start: invalid configuration:\n {2}- BUS_URL sqlite:\.\/x\.db\?partitions=lots: .*partitions/s,
    );
  });

  it('exits 2 on the embedded back ends as pod 1 or later of a workload in a cluster; pod 0 and one machine run them', async () => {
    const opened: string[] = [];
    const start = async (runtime: ServiceRuntime) => {
      await runtime.openBackends(resolveBackends({ DATA_DIR: join(dir, 'pods') }));
      opened.push('opened');
      return {};
    };
    const cluster = { KUBERNETES_SERVICE_HOST: '10.96.0.1', WORKER_ID_BASE: '8' };
    const second = run({ ...cluster, POD_INDEX: '1' }, start);
    expect(await second.exitCode).toBe(2);
    expect(second.stderr.join('')).toBe(
      'gateway did not start: invalid configuration:\n' +
        `  - EVENT_STORE_URL: the embedded SQLite event store (sqlite:${dir}/pods/reelstream.db) is refused: this is pod 1 of a replicated workload, and its pods cannot share one SQLite file: use a server back end or run one pod (postgres://, esdb://)\n` +
        `  - BUS_URL: the embedded SQLite bus (sqlite:${dir}/pods/reelstream.db) is refused: this is pod 1 of a replicated workload, and its pods cannot share one SQLite file: use a server back end or run one pod (kafka://)\n`,
    );
    expect(opened).toEqual([]);
    for (const env of [
      { ...cluster, POD_INDEX: '0' },
      { WORKER_ID_BASE: '8', POD_INDEX: '2' },
    ]) {
      const alone = run(env, start);
      await eventuallyOpened(opened);
      alone.signals.emit('SIGTERM');
      expect(await alone.exitCode).toBe(0);
      opened.length = 0;
    }
  });

  it('exits 1 when a port is taken, naming the variable that chose it', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const takenPort = (taken.address() as AddressInfo).port;
    try {
      const { stderr, exitCode } = run({ GATEWAY_PORT: String(takenPort) }, async (runtime) => {
        const env = runtime.parseEnv(z.object({ GATEWAY_PORT: port(8080) }));
        const server = createServer();
        server.listen(env.GATEWAY_PORT, '127.0.0.1');
        await once(server, 'listening');
        return {};
      });
      expect(await exitCode).toBe(1);
      expect(stderr.join('')).toBe(
        `gateway did not start: port ${takenPort} (GATEWAY_PORT) is already in use (is another reelstream running?); set GATEWAY_PORT to another port, or 0 for any free one\n`,
      );
    } finally {
      taken.close();
    }
  });

  it('exits 1 with the error and its stack when start-up fails for another reason', async () => {
    const { stderr, exitCode } = run({}, async () => {
      throw new Error('the event store does not answer');
    });
    expect(await exitCode).toBe(1);
    expect(stderr.join('')).toMatch(/^gateway did not start: Error: the event store does not answer\n {4}at /);
  });

  it('on SIGTERM stops the parts in reverse order, closes the back ends and exits 0', async () => {
    const order: string[] = [];
    let runtimeSeen: ServiceRuntime | undefined;
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const backends = resolveBackends({ DATA_DIR: dir });
    const { signals, exitCode } = run({ DATA_DIR: dir }, async (runtime) => {
      runtimeSeen = runtime;
      const { bus } = await runtime.openBackends(backends);
      runtime.onStop('first', async () => {
        order.push('first');
        await bus.publish('still-open', { key: 'k', value: { ok: true } });
      });
      runtime.onStop('second', async () => void order.push('second'));
      runtime.onReady(() => {
        order.push('announced');
        ready();
      });
      return { url: 'http://example.test' };
    });
    await isReady;
    expect(runtimeSeen?.identity).toEqual({
      workerId: 1,
      workerIdSource: 'service default',
      instanceId: 'gateway-test-host',
    });
    signals.emit('SIGTERM');
    expect(await exitCode).toBe(0);
    // The bus was still open for the first part's stop: the back ends close after every part.
    expect(order).toEqual(['announced', 'second', 'first']);
  });

  it('hands a lease holder the opened back ends with the instance id, clock, ids and logger of its process', async () => {
    let seen: { deps: Awaited<ReturnType<typeof openLeaseHolderDeps>>; runtime: ServiceRuntime } | undefined;
    const { signals, exitCode } = run({ DATA_DIR: dir }, async (runtime) => {
      seen = { deps: await openLeaseHolderDeps(runtime, resolveBackends({ DATA_DIR: dir })), runtime };
      return {};
    });
    for (let waited = 0; seen === undefined; waited += 20) {
      if (waited > 20_000) throw new Error('the service did not start within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { deps, runtime } = seen;
    expect(deps).toMatchObject({
      instanceId: 'gateway-test-host',
      clock: runtime.clock,
      ids: runtime.ids,
      logger: runtime.logger,
    });
    const lease = await deps.leases.acquire('lease-holder-test', deps.instanceId, 10_000);
    expect(lease?.owner).toBe('gateway-test-host');
    await deps.store.append('lease-holder-test-1', [{ type: 'Noted', data: {} }], { expectedRevision: 'no_stream' });
    expect(await deps.store.streamRevision('lease-holder-test-1')).toBe(0);
    signals.emit('SIGTERM');
    expect(await exitCode).toBe(0);
  });

  it('exits 1 at once on a second signal during the drain', async () => {
    let release: () => void = () => undefined;
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const { signals, stderr, exitCode } = run({}, async (runtime) => {
      runtime.onStop('slow part', () => new Promise<void>((resolve) => (release = resolve)));
      runtime.onReady(ready);
      return {};
    });
    await isReady;
    signals.emit('SIGINT');
    signals.emit('SIGINT');
    expect(await exitCode).toBe(1);
    expect(stderr.join('')).toBe('gateway: SIGINT again: exiting without waiting for the drain\n');
    release();
  });
});
