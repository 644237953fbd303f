import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { failure, RefusedError } from '@reelstream/contracts';
import { createLogger } from '@reelstream/platform-telemetry';
import express from 'express';
import { answeredErrorCode, apiErrorHandler, closeGracefully, routeNotFound } from '../src/index.js';

/** A real express app with the shared handler at the end, as the gateway and the game-server build theirs. */
const logs: string[] = [];
const answered: (string | undefined)[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.locals['requestId'] = 'req-1';
    res.on('finish', () => answered.push(answeredErrorCode(res)));
    next();
  });
  app.get('/refused', () => {
    throw new RefusedError('SESSION_EXPIRED', 'The game session has expired.', {
      details: [{ path: 'token', message: 'expired' }],
    });
  });
  app.get('/busy', () => {
    throw new RefusedError('SERVICE_UNAVAILABLE');
  });
  app.get('/busy-for-a-while', () => {
    throw new RefusedError('SERVICE_UNAVAILABLE', 'Try again in a moment.', { retryAfterSeconds: 7 });
  });
  app.get('/secret/:token/broken', () => {
    throw new Error('database on fire');
  });
  app.get('/own-refusal', () => {
    throw new RangeError('out of range');
  });
  app.post('/body', express.json({ limit: 16 }), (_req, res) => void res.json({ ok: true }));
  app.use(routeNotFound());
  app.use(
    apiErrorHandler({
      logger: createLogger({ service: 'http-test', destination: { write: (line) => logs.push(line) } }),
      requestIdOf: (res) => String(res.locals['requestId']),
      loggedPath: (req) => req.path.replace(/\/secret\/[^/]+/, '/secret/:token'),
      classify: (error) =>
        error instanceof RangeError ? new RefusedError('BET_NOT_ALLOWED', error.message) : undefined,
    }),
  );
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => closeGracefully(server, 0));

const get = async (path: string) => {
  const response = await fetch(`${base}${path}`);
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
};
const post = async (path: string, body: string) => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('RefusedError', () => {
  it('carries the catalogue status of its code', () => {
    expect(new RefusedError('SESSION_EXPIRED').status).toBe(409);
    expect(new RefusedError('WALLET_UNAVAILABLE').status).toBe(503);
  });

  it('defaults to the catalogue message, and a validation error lists its details', () => {
    expect(new RefusedError('ROUTE_NOT_FOUND').message).toBe('No such endpoint.');
    expect(RefusedError.validation([{ path: 'bet', message: 'required' }])).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'bet', message: 'required' }],
    });
  });
});

describe('apiErrorHandler (decisions.md D16)', () => {
  it('answers a thrown RefusedError in the envelope with the catalogue status and its details', async () => {
    const before = answered.length;
    const { status, body } = await get('/refused');
    expect(status).toBe(409);
    expect(body).toEqual(
      failure('SESSION_EXPIRED', 'The game session has expired.', [{ path: 'token', message: 'expired' }]),
    );
    expect(answered.slice(before)).toEqual(['SESSION_EXPIRED']);
  });

  it('tells a 503 when to come back: one second unless the error said otherwise', async () => {
    expect((await get('/busy')).headers.get('retry-after')).toBe('1');
    expect((await get('/busy-for-a-while')).headers.get('retry-after')).toBe('7');
  });

  it('maps the body parser and unknown routes to catalogue codes', async () => {
    expect(await post('/body', '{"bet":')).toMatchObject({ status: 400, body: { error: { code: 'MALFORMED_JSON' } } });
    expect(await post('/body', JSON.stringify({ padding: 'x'.repeat(64) }))).toMatchObject({
      status: 400,
      body: { error: { code: 'PAYLOAD_TOO_LARGE' } },
    });
    expect(await get('/nowhere')).toMatchObject({ status: 404, body: { error: { code: 'ROUTE_NOT_FOUND' } } });
  });

  it("asks the service's own classifier first", async () => {
    expect(await get('/own-refusal')).toMatchObject({
      status: 422,
      body: { error: { code: 'BET_NOT_ALLOWED' }, message: 'out of range' },
    });
  });

  it('answers a fault of ours as 503 INTERNAL without the stack, and logs it with the path as it may be logged', async () => {
    const before = logs.length;
    const { status, body } = await get('/secret/player-credential/broken');
    expect(status).toBe(503);
    expect(body).toEqual(failure('INTERNAL', 'An internal error occurred; retry later.'));
    expect(JSON.stringify(body)).not.toContain('database on fire');
    const entry = JSON.parse(logs.slice(before).join('')) as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: 'error',
      msg: 'request failed',
      requestId: 'req-1',
      method: 'GET',
      path: '/secret/:token/broken',
      error: { message: 'database on fire' },
    });
    expect(logs.slice(before).join('')).not.toContain('player-credential');
  });
});
