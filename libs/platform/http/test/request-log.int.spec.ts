import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@reelstream/telemetry';
import express from 'express';
import { ApiError, apiErrorHandler, closeGracefully, requestLog, routeNotFound } from '../src/index.js';

/** The access log (pino-http) on a real express app, as the gateway and the game-server use it. */
const lines: string[] = [];
let server: Server;
let base: string;
let slowStarted: () => void = () => undefined;

beforeAll(async () => {
  const logger = createLogger({ service: 'http-test', level: 'debug', destination: { write: (l) => lines.push(l) } });
  const app = express();
  app.use((req, res, next) => {
    res.locals['requestId'] = req.get('x-request-id') ?? 'generated';
    next();
  });
  app.use(
    requestLog(logger, {
      requestIdOf: (res) => String(res.locals['requestId']),
      level: 'debug',
      fieldsOf: (res) => ({ operatorId: res.locals['operator'] }),
    }),
  );
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/api/sessions/:token/state', (_req, res) => {
    res.locals['operator'] = 'casino-a';
    res.json({ ok: true });
  });
  app.get('/refused', () => {
    throw new ApiError('SESSION_EXPIRED');
  });
  app.get('/broken', () => {
    throw new Error('database on fire');
  });
  app.get('/slow', () => slowStarted());
  app.use(routeNotFound());
  app.use(apiErrorHandler({ logger, requestIdOf: (res) => String(res.locals['requestId']) }));
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => closeGracefully(server, 0));

const accessLines = () =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry['msg'] === 'http request');

async function logged(path: string, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const before = accessLines().length;
  await (await fetch(`${base}${path}`, { headers })).arrayBuffer();
  // pino-http writes on the response's `finish`, which may come after the client has the body.
  for (let i = 0; i < 100 && accessLines().length === before; i++) await new Promise((r) => setTimeout(r, 10));
  const added = accessLines().slice(before);
  expect(added).toHaveLength(1);
  return added[0] ?? {};
}

describe('requestLog', () => {
  it('writes one line per request: request id, method, path, route, status, time and the service’s fields', async () => {
    const entry = await logged('/api/sessions/player-credential-123/state?token=abc', { 'x-request-id': 'rq-1' });
    expect(entry).toMatchObject({
      level: 'debug',
      service: 'http-test',
      msg: 'http request',
      req: { id: 'rq-1', method: 'GET', path: '/api/sessions/REDACTED/state' },
      route: '/api/sessions/:token/state',
      res: { statusCode: 200 },
      operatorId: 'casino-a',
    });
    expect(typeof entry['responseTime']).toBe('number');
    expect(lines.join('')).not.toContain('player-credential-123');
    expect(lines.join('')).not.toContain('abc');
  });

  it('names the error code answered, and logs a 5xx as a warning without a made-up error', async () => {
    expect(await logged('/refused')).toMatchObject({ level: 'debug', errorCode: 'SESSION_EXPIRED' });
    const failed = await logged('/broken');
    expect(failed).toMatchObject({ level: 'warn', res: { statusCode: 503 }, errorCode: 'INTERNAL' });
    expect(failed).not.toHaveProperty('err');
  });

  it('does not log the probes', async () => {
    const before = lines.length;
    await fetch(`${base}/healthz`);
    await logged('/nowhere');
    expect(accessLines().filter((entry) => (entry['req'] as { path: string }).path === '/healthz')).toEqual([]);
    expect(lines.length).toBe(before + 1);
  });

  it('logs a request the client gave up on as aborted', async () => {
    const before = accessLines().length;
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const controller = new AbortController();
    const request = fetch(`${base}/slow`, { signal: controller.signal }).catch(() => undefined);
    await started;
    controller.abort();
    await request;
    for (let i = 0; i < 100 && accessLines().length === before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(accessLines().slice(before)).toEqual([
      expect.objectContaining({ aborted: true, req: expect.objectContaining({ path: '/slow' }) }),
    ]);
  });
});

describe('requestLog below its level (LOG_LEVEL=warn)', () => {
  const quiet: string[] = [];
  let quietServer: Server;
  let quietBase: string;

  beforeAll(async () => {
    const logger = createLogger({ service: 'http-test', level: 'warn', destination: { write: (l) => quiet.push(l) } });
    const app = express();
    app.use((req, res, next) => {
      res.locals['requestId'] = req.get('x-request-id') ?? 'generated';
      next();
    });
    app.use(
      requestLog(logger, {
        requestIdOf: (res) => String(res.locals['requestId']),
        fieldsOf: (res) => ({ operatorId: res.locals['operator'] }),
      }),
    );
    app.get('/fine', (_req, res) => void res.json({ ok: true }));
    app.get('/refused', () => {
      throw new ApiError('SESSION_EXPIRED');
    });
    app.get('/sessions/:token/broken', (_req, res) => {
      res.locals['operator'] = 'casino-a';
      throw new Error('database on fire');
    });
    app.use(routeNotFound());
    app.use(apiErrorHandler({ logger, requestIdOf: (res) => String(res.locals['requestId']) }));
    quietServer = app.listen(0, '127.0.0.1');
    await once(quietServer, 'listening');
    quietBase = `http://127.0.0.1:${(quietServer.address() as AddressInfo).port}`;
  });

  afterAll(() => closeGracefully(quietServer, 0));

  const quietAccess = () =>
    quiet.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry['msg'] === 'http request');

  it('writes no line for an answer below 500, and the line pino-http writes for a 5xx', async () => {
    for (const path of ['/fine', '/refused', '/nowhere'])
      expect((await fetch(`${quietBase}${path}`)).status).toBeLessThan(500);
    const response = await fetch(`${quietBase}/sessions/secret-token-9/broken?token=abc`, {
      headers: { 'x-request-id': 'rq-quiet' },
    });
    expect(response.status).toBe(503);
    for (let i = 0; i < 100 && quietAccess().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    const entries = quietAccess();
    expect(entries).toEqual([
      expect.objectContaining({
        level: 'warn',
        service: 'http-test',
        req: { id: 'rq-quiet', method: 'GET', path: '/sessions/REDACTED/broken' },
        res: { statusCode: 503 },
        route: '/sessions/:token/broken',
        errorCode: 'INTERNAL',
        operatorId: 'casino-a',
      }),
    ]);
    expect(typeof entries[0]?.['responseTime']).toBe('number');
    expect(entries[0]).not.toHaveProperty('err');
    expect(JSON.stringify(entries)).not.toContain('secret-token-9');
  });
});
