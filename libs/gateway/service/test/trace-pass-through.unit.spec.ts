import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { initTelemetry, traceEventStore, type Telemetry } from '@reelstream/platform-telemetry';
import { sessionKeyOf, sessionKeyStream } from '@reelstream/contracts';
import { startHarness, type Harness } from './support/harness.js';
import { TOKENS } from './support/operators.js';

// Tracing off (OTEL_SDK_DISABLED): no spans of the gateway's own, but an incoming trace context
// still reaches what a request writes, also past the body parser (which continues from socket events).
let telemetry: Telemetry;
let harness: Harness;

beforeAll(async () => {
  telemetry = initTelemetry({ serviceName: 'gateway-test', instrumentHttp: false, env: { OTEL_SDK_DISABLED: 'true' } });
  harness = await startHarness({ wrapStore: traceEventStore });
});
afterAll(async () => {
  await harness.close();
  await telemetry.shutdown();
});

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const launch = (playerId: string, headers: Record<string, string>) =>
  harness.http.post(
    '/v1/game/launch',
    { playerId, providerId: 1, gameId: 101, language: 'en', returnUrl: 'https://casino-a.example/', isStreamer: false },
    { token: TOKENS.a, headers },
  );
const sessionEventOf = async (response: Awaited<ReturnType<typeof launch>>) => {
  const token = new URL(response.body.data as string).searchParams.get('token') as string;
  const [event] = await harness.store.readStream(sessionKeyStream(sessionKeyOf(token)));
  return event;
};

describe('an incoming trace with tracing off', () => {
  it('reaches the events a request with a JSON body appends', async () => {
    const response = await launch('passed_player', { traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01` });
    expect(response.status).toBe(200);
    expect((await sessionEventOf(response))?.metadata.traceparent).toContain(`-${TRACE_ID}-`);
  });

  it('without one, the events carry no trace', async () => {
    const response = await launch('untraced_player', {});
    expect(response.status).toBe(200);
    expect((await sessionEventOf(response))?.metadata.traceparent).toBeUndefined();
  });
});
