import { RefusedError } from '@reelstream/contracts';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@reelstream/platform-telemetry';
import { eventually } from '@reelstream/testing';
import express from 'express';
import { apiErrorHandler, closeGracefully, requestLog, routeNotFound } from '../src/index.js';

/**
 * An express app with the access log as the gateway and the game-server use it: the request id from
 * X-Request-Id, `requestLog` on a logger at `loggerLevel` writing its lines to `sink`, the app's
 * `routes`, and the API's not-found and error handlers; listening on a free port.
 */
async function loggedApp(
  sink: string[],
  loggerLevel: 'debug' | 'warn',
  accessLevel: 'debug' | undefined,
  routes: (app: express.Express) => void,
): Promise<{ server: Server; base: string }> {
  const logger = createLogger({
    service: 'http-test',
    level: loggerLevel,
    destination: { write: (l) => sink.push(l) },
  });
  const app = express();
  app.use((req, res, next) => {
    res.locals['requestId'] = req.get('x-request-id') ?? 'generated';
    next();
  });
  app.use(
    requestLog(logger, {
      requestIdOf: (res) => String(res.locals['requestId']),
      ...(accessLevel === undefined ? {} : { level: accessLevel }),
      fieldsOf: (res) => ({ operatorId: res.locals['operator'] }),
    }),
  );
  routes(app);
  app.use(routeNotFound());
  app.use(apiErrorHandler({ logger, requestIdOf: (res) => String(res.locals['requestId']) }));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The access-log lines among a logger's lines. */
const accessOf = (sink: readonly string[]) =>
  sink.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry['msg'] === 'http request');

/** The access log (pino-http) on a real express app, as the gateway and the game-server use it. */
const lines: string[] = [];
let server: Server;
let base: string;
let slowStarted: () => void = () => undefined;

beforeAll(async () => {
  ({ server, base } = await loggedApp(lines, 'debug', 'debug', (app) => {
    app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
    app.get('/api/sessions/:token/state', (_req, res) => {
      res.locals['operator'] = 'casino-a';
      res.json({ ok: true });
    });
    app.get('/refused', () => {
      throw new RefusedError('SESSION_EXPIRED');
    });
    app.get('/broken', () => {
      throw new Error('database on fire');
    });
    app.get('/slow', () => slowStarted());
  }));
});

afterAll(() => closeGracefully(server, 0));

const accessLines = () => accessOf(lines);

async function logged(path: string, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const before = accessLines().length;
  await (await fetch(`${base}${path}`, { headers })).arrayBuffer();
  // pino-http writes on the response's `finish`, which may come after the client has the body.
  await eventually(() => expect(accessLines().length).toBeGreaterThan(before), 1_000);
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
    await eventually(() => expect(accessLines().length).toBeGreaterThan(before), 1_000);
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
    ({ server: quietServer, base: quietBase } = await loggedApp(quiet, 'warn', undefined, (app) => {
      app.get('/fine', (_req, res) => void res.json({ ok: true }));
      app.get('/refused', () => {
        throw new RefusedError('SESSION_EXPIRED');
      });
      app.get('/sessions/:token/broken', (_req, res) => {
        res.locals['operator'] = 'casino-a';
        throw new Error('database on fire');
      });
    }));
  });

  afterAll(() => closeGracefully(quietServer, 0));

  const quietAccess = () => accessOf(quiet);

  it('writes no line for an answer below 500, and the line pino-http writes for a 5xx', async () => {
    for (const path of ['/fine', '/refused', '/nowhere'])
      expect((await fetch(`${quietBase}${path}`)).status).toBeLessThan(500);
    const response = await fetch(`${quietBase}/sessions/secret-token-9/broken?token=abc`, {
      headers: { 'x-request-id': 'rq-quiet' },
    });
    expect(response.status).toBe(503);
    await eventually(() => expect(quietAccess().length).toBeGreaterThan(0), 1_000);
    // A fixed wait on purpose: a second access line, if one were written, would come within it.
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
