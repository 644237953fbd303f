/**
 * The operator POST in a trace: node's HTTP instrumentation does not see undici, so the client makes
 * its own CLIENT span (a child of the delivery's span), sends its context in `traceparent` for the
 * operator's server span to continue, and records `http.client.request.duration` — what the
 * instrumentation did for got. A real tracer and meter provider, a real HTTP server.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, context, metrics, propagation, trace } from '@opentelemetry/api';
import { DataPointType, MeterProvider, MetricReader, type Histogram } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { parseOperatorsConfig, type OperatorConfig, type WalletBetRequest } from '@reelstream/contracts';
import { sampleBetRequest } from '@reelstream/testing';
import { callbackFor } from '@reelstream/wallet-domain';
import { HttpOperatorWallet } from '../src/index.js';

class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const spans = new InMemorySpanExporter();
const tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const reader = new CollectingReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const received: IncomingHttpHeaders[] = [];
let server: Server;
let port: number;
let wallet: HttpOperatorWallet;

beforeAll(async () => {
  tracerProvider.register();
  metrics.setGlobalMeterProvider(meterProvider);
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.headers);
      if (req.url === '/slow') return;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":100,"statusCode":"OK"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
  wallet = new HttpOperatorWallet();
});
afterAll(async () => {
  await wallet.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
  trace.disable();
  propagation.disable();
  context.disable();
  metrics.disable();
});
beforeEach(() => {
  spans.reset();
  received.length = 0;
});

const operatorAt = (path: string): OperatorConfig =>
  parseOperatorsConfig([
    {
      id: 'traced',
      name: 'Traced',
      apiToken: 'traced-api-token-0123456789',
      callbackUrl: `http://127.0.0.1:${port}${path}`,
      signingSecret: 'traced-signing-secret-0123456789',
      currency: 'EUR',
    },
  ])[0] as OperatorConfig;

const bet: WalletBetRequest = sampleBetRequest({
  transactionId: 9_001,
  operatorId: 'traced',
  playerId: 'traced_player',
  roundId: 9_002,
});

/** Runs `work` inside a span, as the dispatcher's deliveries run inside their CONSUMER span. */
async function inDelivery<T>(work: () => Promise<T>): Promise<{ result: T; traceId: string; spanId: string }> {
  const delivery = trace.getTracer('test').startSpan('process wallet.requests');
  try {
    const result = await context.with(trace.setSpan(context.active(), delivery), work);
    return { result, ...delivery.spanContext() };
  } finally {
    delivery.end();
  }
}

async function durationPoints() {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((each) => each.descriptor.name === 'http.client.request.duration');
  expect(metric?.dataPointType).toBe(DataPointType.HISTOGRAM);
  return (metric?.dataPoints ?? []).map((point) => ({
    attributes: point.attributes,
    count: (point.value as Histogram).count,
  }));
}

describe('the operator POST in a trace', () => {
  it('is a CLIENT span of the delivery, and the operator receives its traceparent', async () => {
    const { result, traceId, spanId } = await inDelivery(() =>
      wallet.call(operatorAt('/wallet/traced'), callbackFor(bet), 2_000),
    );
    expect(result).toEqual({ kind: 'reply', statusCode: 'OK', balance: 100 });

    const client = spans.getFinishedSpans().find((span) => span.kind === SpanKind.CLIENT);
    expect(client?.name).toBe('POST');
    expect(client?.parentSpanContext?.spanId).toBe(spanId);
    expect(client?.spanContext().traceId).toBe(traceId);
    expect(client?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.full': `http://127.0.0.1:${port}/wallet/traced`,
      'http.response.status_code': 200,
    });
    expect(received[0]?.['traceparent']).toBe(`00-${traceId}-${client?.spanContext().spanId}-01`);
    expect(await durationPoints()).toContainEqual({
      attributes: {
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'server.port': port,
        'http.response.status_code': 200,
      },
      count: 1,
    });
  });

  it('a time-out ends the span as an error of type timeout, and is measured', async () => {
    await inDelivery(() => wallet.call(operatorAt('/slow'), callbackFor(bet), 200));
    const client = spans.getFinishedSpans().find((span) => span.kind === SpanKind.CLIENT);
    expect(client?.status.code).toBe(SpanStatusCode.ERROR);
    expect(client?.attributes['error.type']).toBe('timeout');
    expect(await durationPoints()).toContainEqual({
      attributes: {
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'server.port': port,
        'error.type': 'timeout',
      },
      count: 1,
    });
  });
});
