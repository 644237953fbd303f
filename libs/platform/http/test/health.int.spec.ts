/**
 * The one health endpoint pair: the same answers on a port of its own (ledger,
 * dispatcher) and mounted in front of an express API (gateway, game-server, sandbox).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  createHttpServer,
  DrainSignal,
  healthEndpoints,
  startHealthServer,
  type HealthServer,
  type Readiness,
} from '../src/index.js';

let answer: Readiness | Error = { ready: true };
const probe = async () => {
  if (answer instanceof Error) throw answer;
  return answer;
};

async function get(url: string, method = 'GET'): Promise<{ status: number; body: unknown; cache: string | null }> {
  const response = await fetch(url, { method });
  return { status: response.status, body: await response.json(), cache: response.headers.get('cache-control') };
}

describe('startHealthServer', () => {
  let health: HealthServer;
  let base: string;
  beforeAll(async () => {
    health = await startHealthServer({ port: 0, host: '127.0.0.1' }, probe);
    base = `http://127.0.0.1:${health.port}`;
  });
  afterAll(() => health.close());

  it('answers /healthz 200 whatever the probe says', async () => {
    answer = new Error('store down');
    expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' }, cache: 'no-store' });
  });

  it("answers /readyz with the probe's readiness, status and detail", async () => {
    answer = { ready: true, detail: { consumers: 'joined' } };
    expect(await get(`${base}/readyz`)).toMatchObject({ status: 200, body: { status: 'ready', consumers: 'joined' } });
    answer = { ready: false, detail: { consumers: 'rejoining' } };
    expect(await get(`${base}/readyz?x=1`)).toMatchObject({
      status: 503,
      body: { status: 'not ready', consumers: 'rejoining' },
    });
    answer = { ready: false, status: 'draining' };
    expect(await get(`${base}/readyz`)).toMatchObject({ status: 503, body: { status: 'draining' } });
  });

  it('answers 503 unavailable with the reason when the probe throws', async () => {
    answer = new Error('the event store does not answer');
    expect(await get(`${base}/readyz`)).toMatchObject({
      status: 503,
      body: { status: 'unavailable', reason: 'the event store does not answer' },
    });
  });

  it('answers 405 to another method and 404 to another path', async () => {
    answer = { ready: true };
    expect(await get(`${base}/readyz`, 'POST')).toMatchObject({ status: 405 });
    expect(await get(`${base}/metrics`)).toMatchObject({ status: 404, body: { status: 'not found' } });
  });

  it('frees its port on close', async () => {
    const other = await startHealthServer({ port: 0, host: '127.0.0.1' }, probe);
    await other.close();
    await expect(fetch(`http://127.0.0.1:${other.port}/healthz`)).rejects.toThrow();
  });
});

describe('healthEndpoints in front of an express app', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(healthEndpoints(probe));
    app.get('/hello', (_req, res) => void res.json({ hello: true }));
    app.post('/readyz', (_req, res) => void res.status(404).json({ route: 'not found' }));
    server = createHttpServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers the probes the same way and passes every other request on', async () => {
    answer = { ready: false, status: 'unavailable', detail: { reason: 'consumers not taking messages' } };
    expect(await get(`${base}/readyz`)).toMatchObject({
      status: 503,
      body: { status: 'unavailable', reason: 'consumers not taking messages' },
    });
    expect(await get(`${base}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await get(`${base}/hello`)).toMatchObject({ status: 200, body: { hello: true } });
    // Another method is the API's to answer (the gateway's envelope), not the probes'.
    expect(await get(`${base}/readyz`, 'POST')).toMatchObject({ status: 404, body: { route: 'not found' } });
  });
});

describe('a DrainSignal', () => {
  it('turns /readyz into 503 draining without asking the probe, leaving /healthz and the routes alone', async () => {
    const drain = new DrainSignal();
    let asked = 0;
    const health = await startHealthServer(
      { port: 0, host: '127.0.0.1' },
      () => {
        asked++;
        return { ready: true };
      },
      drain,
    );
    const base = `http://127.0.0.1:${health.port}`;
    try {
      expect((await get(`${base}/readyz`)).status).toBe(200);
      drain.begin();
      drain.begin();
      expect(await get(`${base}/readyz`)).toMatchObject({ status: 503, body: { status: 'draining' } });
      expect((await get(`${base}/healthz`)).status).toBe(200);
      expect(asked).toBe(1);
      expect(drain.draining).toBe(true);
    } finally {
      await health.close();
    }
  });

  it('drainFor waits the given time after reporting draining', async () => {
    const drain = new DrainSignal();
    const started = Date.now();
    const waiting = drain.drainFor(150);
    expect(drain.draining).toBe(true);
    await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
  });
});
