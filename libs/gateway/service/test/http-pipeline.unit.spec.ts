import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { errorEnvelope, sessionKeyOf, sessionKeyStream } from '@reelstream/contracts';
import { createLogger } from '@reelstream/platform-telemetry';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { createGatewayApp } from '../src/index.js';
import { accessLogs, startHarness, type Harness } from './support/harness.js';
import { HttpClient } from './support/http-client.js';
import { TOKENS } from './support/operators.js';
import { serveApp } from './support/serve-app.js';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

const LIMIT = 1024;
const launchBody = {
  playerId: 'player_1',
  providerId: 1,
  gameId: 101,
  language: 'en',
  returnUrl: 'https://casino-a.example/lobby',
  isStreamer: false,
};

let harness: Harness;
let api: HttpClient;

beforeAll(async () => {
  harness = await startHarness({ config: { bodyLimitBytes: LIMIT } });
  api = harness.http.withToken(TOKENS.a);
});
afterAll(async () => {
  await harness.close();
});

/** Every failure has the D16 envelope, with the catalogue's status for its code and no stack. */
function expectFailure(response: { status: number; body: unknown; text: string }, status: number, code: string): void {
  expect(response.status).toBe(status);
  const envelope = errorEnvelope.parse(response.body);
  expect(envelope.error.code).toBe(code);
  expect(response.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
}

describe('unknown routes', () => {
  it('answers 404 ROUTE_NOT_FOUND in the envelope outside /v1, without a token', async () => {
    expectFailure(await harness.http.get('/nothing/here'), 404, 'ROUTE_NOT_FOUND');
  });

  it('answers 404 ROUTE_NOT_FOUND under /v1 for an authenticated caller', async () => {
    expectFailure(await api.get('/v1/bonus-calls'), 404, 'ROUTE_NOT_FOUND');
    expectFailure(await api.get('/v2/providers'), 404, 'ROUTE_NOT_FOUND');
  });

  it('answers an unsupported method on a known path with 404 ROUTE_NOT_FOUND', async () => {
    expectFailure(await api.call('PUT', '/v1/bonus-call/register', { json: {} }), 404, 'ROUTE_NOT_FOUND');
    expectFailure(await api.call('DELETE', '/v1/providers'), 404, 'ROUTE_NOT_FOUND');
  });

  it('asks for a token before revealing which /v1 routes exist', async () => {
    expectFailure(await harness.http.get('/v1/bonus-calls'), 401, 'UNAUTHORIZED');
  });
});

describe('JSON bodies', () => {
  it('answers a body that is not JSON with 400 MALFORMED_JSON', async () => {
    for (const raw of ['{"platformId":', '{playerId: 1}', "{'a':1}", '{"a":1}}', 'nul']) {
      expectFailure(
        await api.call('POST', '/v1/game/launch', { raw, headers: { 'content-type': 'application/json' } }),
        400,
        'MALFORMED_JSON',
      );
    }
  });

  it('refuses a top-level JSON string or number as MALFORMED_JSON (strict parsing)', async () => {
    expectFailure(
      await api.call('POST', '/v1/game/launch', { raw: '"text"', headers: { 'content-type': 'application/json' } }),
      400,
      'MALFORMED_JSON',
    );
    expectFailure(
      await api.call('POST', '/v1/game/launch', { raw: '42', headers: { 'content-type': 'application/json' } }),
      400,
      'MALFORMED_JSON',
    );
  });

  it('answers an empty JSON body with every required field missing, and an array for the whole body', async () => {
    const empty = await api.call('POST', '/v1/game/launch', {
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expectFailure(empty, 400, 'VALIDATION_FAILED');
    expect(empty.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([
      'playerId',
      'providerId',
      'gameId',
      'language',
      'returnUrl',
      'isStreamer',
    ]);
    const array = await api.post('/v1/game/launch', [launchBody]);
    expectFailure(array, 400, 'VALIDATION_FAILED');
    expect(array.body.error.details).toEqual([{ path: '', message: expect.stringContaining('expected object') }]);
  });

  it.each([
    ['no Content-Type', undefined],
    ['text/plain', 'text/plain'],
    ['form encoding', 'application/x-www-form-urlencoded'],
    ['a JSON-like subtype', 'application/vnd.api+json'],
    ['a type that only starts like JSON', 'application/jsonx'],
  ])('answers %s with 400 UNSUPPORTED_MEDIA_TYPE before reading the body', async (_name, contentType) => {
    const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
    expectFailure(
      await api.call('POST', '/v1/game/launch', { raw: JSON.stringify(launchBody), headers }),
      400,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('answers a JSON body in another charset or compressed with 400 UNSUPPORTED_MEDIA_TYPE', async () => {
    const raw = JSON.stringify(launchBody);
    expectFailure(
      await api.call('POST', '/v1/game/launch', {
        raw,
        headers: { 'content-type': 'application/json; charset=latin1' },
      }),
      400,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectFailure(
      await api.call('POST', '/v1/game/launch', {
        raw,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      }),
      400,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('accepts application/json in any letter case and with a UTF-8 charset', async () => {
    const raw = JSON.stringify(launchBody);
    const response = await api.call('POST', '/v1/game/launch', {
      raw,
      headers: { 'content-type': 'Application/JSON; charset=UTF-8' },
    });
    expect(response.status).toBe(200);
  });

  it('reads a body of exactly the limit and refuses one byte more with 400 PAYLOAD_TOO_LARGE', async () => {
    const json = JSON.stringify(launchBody);
    const atLimit = json.slice(0, -1) + ' '.repeat(LIMIT - json.length) + '}';
    expect(Buffer.byteLength(atLimit)).toBe(LIMIT);
    const ok = await api.call('POST', '/v1/game/launch', {
      raw: atLimit,
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(200);
    const over = atLimit.slice(0, -1) + ' }';
    expect(Buffer.byteLength(over)).toBe(LIMIT + 1);
    expectFailure(
      await api.call('POST', '/v1/game/launch', { raw: over, headers: { 'content-type': 'application/json' } }),
      400,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('refuses a very large body without reading it and keeps serving', async () => {
    const huge = `{"playerId":"${'x'.repeat(5 * 1024 * 1024)}"}`;
    expectFailure(
      await api.call('POST', '/v1/game/launch', { raw: huge, headers: { 'content-type': 'application/json' } }),
      400,
      'PAYLOAD_TOO_LARGE',
    );
    expect((await api.get('/v1/providers')).status).toBe(200);
  });
});

describe('X-Request-Id', () => {
  it('echoes a safe incoming id and uses it as the correlationId of the events the request causes', async () => {
    const response = await api.post('/v1/game/launch', launchBody, {
      headers: { 'x-request-id': 'op-req:2026.05_01-0001' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('op-req:2026.05_01-0001');
    const token = new URL(response.body.data as string).searchParams.get('token') as string;
    const [event] = await harness.store.readStream(sessionKeyStream(sessionKeyOf(token)));
    expect(event?.metadata.correlationId).toBe('op-req:2026.05_01-0001');
  });

  it.each([
    ['spaces', 'not a safe id'],
    ['a leading dash', '-abc'],
    ['129 characters', 'a'.repeat(129)],
    ['a percent sign', 'abc%01'],
    ['a slash', 'abc/def'],
  ])('replaces an id with %s by a generated UUID', async (_name, incoming) => {
    const response = await api.get('/v1/providers', { headers: { 'x-request-id': incoming } });
    expect(response.headers.get('x-request-id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('generates an id when none is sent, also on errors', async () => {
    const denied = await harness.http.get('/v1/providers');
    expect(denied.status).toBe(401);
    expect(denied.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await api.get('/v1/missing');
    expect(missing.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(missing.headers.get('x-request-id')).not.toBe(denied.headers.get('x-request-id'));
  });
});

describe('access log and security headers', () => {
  it('writes one structured line per request with the request id, operator, status and error code', async () => {
    const before = accessLogs(harness.logs).length;
    await api.get('/v1/missing', { headers: { 'x-request-id': 'log-check-1' } });
    const entries = accessLogs(harness.logs).slice(before);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      level: 'info',
      service: 'gateway-test',
      req: { id: 'log-check-1', method: 'GET', path: '/v1/missing' },
      res: { statusCode: 404 },
      operatorId: 'casino-a',
      errorCode: 'ROUTE_NOT_FOUND',
    });
    expect(typeof entries[0]?.['responseTime']).toBe('number');
    expect(entries[0]).not.toHaveProperty('err');
  });

  it('logs the route template, never the query string, and never the bearer token', async () => {
    const before = accessLogs(harness.logs).length;
    await api.get('/v1/games?providerId=1');
    const [entry] = accessLogs(harness.logs).slice(before);
    expect(entry).toMatchObject({ req: { path: '/v1/games' }, route: '/v1/games', res: { statusCode: 200 } });
    expect(harness.logs.slice(-5).join('')).not.toContain(TOKENS.a);
  });

  it('does not log the probes', async () => {
    const before = harness.logs.length;
    await harness.http.get('/healthz');
    await harness.http.get('/readyz');
    await api.get('/v1/providers');
    const entries = accessLogs(harness.logs.slice(before));
    expect(entries.map((entry) => (entry['req'] as { path: string }).path)).toEqual(['/v1/providers']);
  });

  it('sends helmet headers and no X-Powered-By, and marks API answers as not cacheable', async () => {
    const response = await api.get('/v1/providers');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('health, OpenAPI and docs', () => {
  it('answers /healthz and /readyz without a token', async () => {
    expect((await harness.http.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await harness.http.get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('serves /openapi.json and a /docs page whose scripts are served from the same origin', async () => {
    const spec = await harness.http.get('/openapi.json');
    expect(spec.status).toBe(200);
    expect(spec.body.openapi).toBe('3.1.0');
    const docs = await harness.http.get('/docs');
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(docs.text).toContain('<script src="/docs/scalar.js"></script>');
    const scalar = await harness.http.get('/docs/scalar.js');
    expect(scalar.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(scalar.text).toContain('createApiReference');
    const init = await harness.http.get('/docs/init.js');
    expect(init.text).toContain('"url":"/openapi.json"');
  });
});

describe('faults of our own', () => {
  it('answers a thrown error with 503 INTERNAL and Retry-After, logs the stack, and shows none of it', async () => {
    const logs: string[] = [];
    const app = createGatewayApp({
      bus: harness.bus,
      store: {
        ...harness.store,
        append: () => Promise.reject(new Error('disk on fire at /var/lib/secret')),
        streamRevision: (id: string) => harness.store.streamRevision(id),
      } as never,
      operators: harness.operators,
      catalog: loadCatalogFile(),
      clock: harness.clock,
      ids: { next: () => 1 },
      logger: createLogger({ service: 'gateway-test', destination: { write: (line: string) => logs.push(line) } }),
      reconciliationReadModels: SqliteReconciliationReadModel,
      config: harness.config,
    });
    const served = await serveApp(app);
    try {
      const response = await new HttpClient(served.url, TOKENS.a).post('/v1/game/launch', launchBody);
      expectFailure(response, 503, 'INTERNAL');
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.text).not.toContain('disk on fire');
      const logged = logs
        .map((line) => JSON.parse(line) as { msg: string; error?: { message: string; stack: string } })
        .find((entry) => entry.msg === 'request failed');
      expect(logged?.error?.message).toBe('disk on fire at /var/lib/secret');
      expect(logged?.error?.stack).toContain('Error: disk on fire');
    } finally {
      await served.close();
    }
  });

  it('reports not ready while draining', async () => {
    const app = createGatewayApp({
      bus: harness.bus,
      store: harness.store,
      operators: harness.operators,
      catalog: loadCatalogFile(),
      clock: harness.clock,
      ids: { next: () => 1 },
      logger: harness.logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
      config: harness.config,
      readiness: { accepting: () => false },
    });
    const served = await serveApp(app);
    try {
      const response = await new HttpClient(served.url).get('/readyz');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'draining' });
    } finally {
      await served.close();
    }
  });

  it("reports not ready while one of the process's consumers is not taking messages, ready once it is", async () => {
    let unhealthy = ['bonus-ledger'];
    const app = createGatewayApp({
      bus: harness.bus,
      store: harness.store,
      operators: harness.operators,
      catalog: loadCatalogFile(),
      clock: harness.clock,
      ids: { next: () => 1 },
      logger: harness.logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
      config: harness.config,
      readiness: { accepting: () => true, unhealthyConsumers: () => unhealthy },
    });
    const served = await serveApp(app);
    try {
      const client = new HttpClient(served.url);
      const response = await client.get('/readyz');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        status: 'unavailable',
        reason: 'consumers not taking messages',
        consumers: ['bonus-ledger'],
      });
      unhealthy = [];
      expect((await client.get('/readyz')).status).toBe(200);
    } finally {
      await served.close();
    }
  });
});
