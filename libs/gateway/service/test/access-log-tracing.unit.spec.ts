import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { initTelemetry, traceEventStore, type Telemetry } from '@reelstream/platform-telemetry';
import { sessionKeyOf, sessionKeyStream } from '@reelstream/contracts';
import { accessLogs, startHarness, type Harness } from './support/harness.js';
import { TOKENS } from './support/operators.js';

// Telemetry as `main.ts` sets it up, minus the HTTP instrumentation: the gateway then opens the
// server span itself, which is what the all-in-one platform relies on.
let telemetry: Telemetry;
let harness: Harness;

beforeAll(async () => {
  telemetry = initTelemetry({ serviceName: 'gateway-test', instrumentHttp: false, env: {} });
  harness = await startHarness({ wrapStore: traceEventStore });
});
afterAll(async () => {
  await harness.close();
  await telemetry.shutdown();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

describe('access logs with trace ids', () => {
  it('continues an incoming traceparent: the access log line carries its trace id', async () => {
    const before = accessLogs(harness.logs).length;
    await harness.http.get('/v1/providers', { token: TOKENS.a, headers: { traceparent } });
    const [entry] = accessLogs(harness.logs).slice(before);
    expect(entry).toMatchObject({ trace_id: TRACE_ID, res: { statusCode: 200 }, route: '/v1/providers' });
    expect(entry?.['span_id']).toMatch(/^[0-9a-f]{16}$/);
    expect(entry?.['span_id']).not.toBe('00f067aa0ba902b7');
  });

  it('starts a new trace without one, and the events a request appends carry that trace', async () => {
    const before = accessLogs(harness.logs).length;
    const response = await harness.http.post(
      '/v1/game/launch',
      {
        playerId: 'traced_player',
        providerId: 1,
        gameId: 101,
        language: 'en',
        returnUrl: 'https://casino-a.example/',
        isStreamer: false,
      },
      { token: TOKENS.a },
    );
    expect(response.status).toBe(200);
    const [entry] = accessLogs(harness.logs).slice(before);
    expect(entry?.['trace_id']).toMatch(/^[0-9a-f]{32}$/);
    expect(entry?.['trace_id']).not.toBe(TRACE_ID);
    const token = new URL(response.body.data as string).searchParams.get('token') as string;
    const [event] = await harness.store.readStream(sessionKeyStream(sessionKeyOf(token)));
    expect(event?.metadata.traceparent).toContain(`-${entry?.['trace_id'] as string}-`);
    expect(event?.metadata.correlationId).toBe((entry?.['req'] as { id?: unknown } | undefined)?.id);
  });

  it('gives two requests two different traces', async () => {
    const before = accessLogs(harness.logs).length;
    await harness.http.get('/openapi.json');
    await harness.http.get('/openapi.json');
    const [first, second] = accessLogs(harness.logs).slice(before);
    expect(first?.['trace_id']).toMatch(/^[0-9a-f]{32}$/);
    expect(second?.['trace_id']).toMatch(/^[0-9a-f]{32}$/);
    expect(first?.['trace_id']).not.toBe(second?.['trace_id']);
  });
});
