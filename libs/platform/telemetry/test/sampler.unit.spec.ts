import { ROOT_CONTEXT, SpanKind, TraceFlags, trace, type Context } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from '@jest/globals';
import { samplerFor } from '../src/sampler.js';
import { resolveTelemetrySettings, TelemetryConfigError } from '../src/settings.js';

const samplerOf = (env: Record<string, string>) => resolveTelemetrySettings({ serviceName: 'gateway' }, env).sampler;

/** 1000 trace ids spread over the whole id space, as the SDK's random generator would give. */
const word = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
const traceIds = Array.from({ length: 1_000 }, (_, i) =>
  [0x9e3779b1, 0x85ebca6b, 0xc2b2ae35, 0x27d4eb2f].map((k) => word(Math.imul(i + 1, k))).join(''),
);

function sampledShare(env: Record<string, string>, parent: Context = ROOT_CONTEXT): number {
  const sampler = samplerFor(samplerOf(env));
  const kept = traceIds.filter(
    (traceId) =>
      sampler.shouldSample(parent, traceId, 'GET /x', SpanKind.SERVER, {}, []).decision ===
      SamplingDecision.RECORD_AND_SAMPLED,
  );
  return kept.length / traceIds.length;
}

const remoteParent = (sampled: boolean) =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });

describe('OTEL_TRACES_SAMPLER', () => {
  it('defaults to parentbased_always_on: every new trace kept, an upstream decision followed', () => {
    expect(samplerOf({})).toEqual({ name: 'parentbased_always_on' });
    expect(sampledShare({})).toBe(1);
    expect(sampledShare({}, remoteParent(false))).toBe(0);
    expect(sampledShare({}, remoteParent(true))).toBe(1);
  });

  it('keeps about the ratio OTEL_TRACES_SAMPLER_ARG names of new traces', () => {
    const env = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' };
    expect(samplerOf(env)).toEqual({ name: 'parentbased_traceidratio', ratio: 0.25 });
    const share = sampledShare(env);
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.3);
    // A sampled parent upstream wins over the ratio.
    expect(sampledShare(env, remoteParent(true))).toBe(1);
  });

  it('takes the ratio as 1 when OTEL_TRACES_SAMPLER_ARG is not set, and always_off drops everything', () => {
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'TraceIdRatio' })).toEqual({ name: 'traceidratio', ratio: 1 });
    expect(sampledShare({ OTEL_TRACES_SAMPLER: 'always_off' }, remoteParent(true))).toBe(0);
    expect(sampledShare({ OTEL_TRACES_SAMPLER: 'always_on' }, remoteParent(false))).toBe(1);
  });

  it('refuses an unknown sampler and a ratio outside 0..1 instead of falling back silently', () => {
    expect(() => samplerOf({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(TelemetryConfigError);
    expect(() => samplerOf({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/unsupported sampler "jaeger_remote"/);
    expect(() => samplerOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(
      'OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1; got "1.5"',
    );
    expect(() => samplerOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' })).toThrow(
      TelemetryConfigError,
    );
  });
});
