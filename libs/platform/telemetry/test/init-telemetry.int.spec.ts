import { afterEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT_CONTEXT, context, isSpanContextValid, trace } from '@opentelemetry/api';
import { freePort } from '@reelstream/testing';
import { initTelemetry, type Telemetry } from '../src/init.js';
import { createMetrics } from '../src/metrics.js';
import { extractTraceContext, injectTraceContext } from '../src/trace-context.js';

const run = promisify(execFile);
const handles: Telemetry[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.shutdown()));
});
function init(env: Record<string, string>): Telemetry {
  const handle = initTelemetry({ serviceName: 'telemetry-test', serviceVersion: '0.1.0', env, instrumentHttp: false });
  handles.push(handle);
  return handle;
}

const remoteParent = `00-${'4bf92f3577b34da6a3ce929d0e0e4736'}-${'00f067aa0ba902b7'}-01`;

describe('initTelemetry', () => {
  it('with nothing configured, gives spans real ids that propagate, and exports nothing', () => {
    const telemetry = init({});
    expect(telemetry.settings).toMatchObject({ disabled: false, traceExporters: [], metricExporters: [] });

    const span = trace.getTracer('t').startSpan('work');
    const carrier = context.with(trace.setSpan(context.active(), span), () => injectTraceContext({}));
    expect(span.isRecording()).toBe(true);
    span.end();

    expect(isSpanContextValid(span.spanContext())).toBe(true);
    expect(carrier['traceparent']).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });

  it('is shared by every caller in the process and stops with the last shutdown', async () => {
    const first = init({});
    const second = initTelemetry({ serviceName: 'another-service', env: {}, instrumentHttp: false });

    expect(second.settings.serviceName).toBe('telemetry-test');
    await second.shutdown();
    await second.shutdown();
    expect(isSpanContextValid(trace.getTracer('t').startSpan('still on').spanContext())).toBe(true);

    await first.shutdown();
    expect(isSpanContextValid(trace.getTracer('t').startSpan('off').spanContext())).toBe(false);

    const again = init({ OTEL_SERVICE_NAME: 'restarted' });
    expect(again.settings.serviceName).toBe('restarted');
    expect(isSpanContextValid(trace.getTracer('t').startSpan('on again').spanContext())).toBe(true);
  });

  it('samples as OTEL_TRACES_SAMPLER says, read from the env it is given', () => {
    init({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' });
    const tracer = trace.getTracer('t');
    // A new trace is dropped (its context still propagates, unsampled) …
    const root = tracer.startSpan('root', {}, ROOT_CONTEXT);
    expect(root.isRecording()).toBe(false);
    expect(root.spanContext().traceFlags & 1).toBe(0);
    // … a trace sampled upstream is kept.
    const child = tracer.startSpan('child', {}, extractTraceContext({ traceparent: remoteParent }));
    expect(child.isRecording()).toBe(true);
    root.end();
    child.end();
  });

  it('refuses a sampler it does not know before setting anything up', () => {
    expect(() => init({ OTEL_TRACES_SAMPLER: 'xray' })).toThrow(/OTEL_TRACES_SAMPLER: unsupported sampler "xray"/);
    expect(isSpanContextValid(trace.getTracer('t').startSpan('none', {}, ROOT_CONTEXT).spanContext())).toBe(false);
  });

  it('with OTEL_SDK_DISABLED, makes no spans of its own but passes an incoming trace through', () => {
    init({ OTEL_SDK_DISABLED: 'true' });

    const parent = extractTraceContext({ traceparent: remoteParent });
    const span = trace.getTracer('t').startSpan('work', {}, parent);
    const carrier = injectTraceContext({}, trace.setSpan(parent, span));

    expect(span.isRecording()).toBe(false);
    expect(carrier['traceparent']).toBe(remoteParent);
    expect(isSpanContextValid(trace.getTracer('t').startSpan('root', {}, ROOT_CONTEXT).spanContext())).toBe(false);
  });

  it('serves metrics for Prometheus when OTEL_METRICS_EXPORTER=prometheus', async () => {
    const port = await freePort();
    const telemetry = init({
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
    });
    expect(telemetry.settings.prometheus).toEqual({ host: '127.0.0.1', port });

    createMetrics('telemetry-test')
      .counter<'outcome'>('bonus.registrations', { description: 'registrations' })
      .add(2, { outcome: 'accepted' });

    let body = '';
    for (let tries = 0; tries < 50 && !body.includes('bonus_registrations'); tries++) {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
      body = response?.ok ? await response.text() : '';
      if (!body.includes('bonus_registrations')) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(body).toMatch(/bonus_registrations_total\{outcome="accepted"[^}]*\} 2/);
    expect(body).toContain('service_name="telemetry-test"');
  });

  it('traces incoming HTTP requests in the caller’s trace, but not health probes', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'http-server-traced.ts'), remoteParent],
      {
        cwd: import.meta.dirname,
        timeout: 20_000,
      },
    );
    expect(JSON.parse(stdout)).toEqual({ '/v1/bonus-call/1': '4bf92f3577b34da6a3ce929d0e0e4736', '/healthz': null });
  });
});
