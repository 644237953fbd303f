import { afterAll, describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, TraceFlags, context, trace } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import {
  contextFromEventMetadata,
  extractTraceContext,
  injectTraceContext,
  traceContextFields,
} from '../src/trace-context.js';
import { installTracing } from './tracing-harness.js';

const tracing = installTracing();
afterAll(() => tracing.uninstall());

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const spanId = '00f067aa0ba902b7';

describe('W3C trace context in string carriers', () => {
  it('round-trips trace id, span id, flags and tracestate through traceparent/tracestate', () => {
    const original = trace.setSpanContext(ROOT_CONTEXT, {
      traceId,
      spanId,
      traceFlags: TraceFlags.SAMPLED,
      traceState: new TraceState('vendor=value,other=1'),
    });

    const carrier = injectTraceContext({ 'correlation-id': 'c-1' }, original);

    expect(carrier).toEqual({
      'correlation-id': 'c-1',
      traceparent: `00-${traceId}-${spanId}-01`,
      tracestate: 'vendor=value,other=1',
    });
    const extracted = trace.getSpanContext(extractTraceContext(carrier));
    expect(extracted).toMatchObject({ traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    expect(extracted?.traceState?.serialize()).toBe('vendor=value,other=1');
  });

  it('injects the active span by default', () => {
    const span = tracing.tracer.startSpan('active');
    const carrier = context.with(trace.setSpan(context.active(), span), () => injectTraceContext({}));
    span.end();
    expect(carrier['traceparent']).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });

  it('writes nothing when there is no valid span', () => {
    expect(injectTraceContext({}, ROOT_CONTEXT)).toEqual({});
    expect(traceContextFields(ROOT_CONTEXT)).toEqual({});
  });

  it('extracts no parent from a missing or malformed traceparent', () => {
    expect(trace.getSpanContext(extractTraceContext({}))).toBeUndefined();
    expect(trace.getSpanContext(extractTraceContext({ traceparent: 'not-a-traceparent' }))).toBeUndefined();
    expect(
      trace.getSpanContext(extractTraceContext({ traceparent: `00-${'0'.repeat(32)}-${spanId}-01` })),
    ).toBeUndefined();
  });

  it('continues the trace stored in event metadata', () => {
    const parent = contextFromEventMetadata({ correlationId: 'c-9', traceparent: `00-${traceId}-${spanId}-01` });
    const child = tracing.tracer.startSpan('projection', {}, parent);
    child.end();
    expect(child.spanContext().traceId).toBe(traceId);
    expect(tracing.spanNamed('projection').parentSpanContext?.spanId).toBe(spanId);
  });

  it('treats metadata without trace fields as no parent', () => {
    expect(trace.getSpanContext(contextFromEventMetadata({ correlationId: 'c-1' }))).toBeUndefined();
    expect(trace.getSpanContext(contextFromEventMetadata(undefined))).toBeUndefined();
    expect(trace.getSpanContext(contextFromEventMetadata({ traceparent: 42 as unknown as string }))).toBeUndefined();
  });
});
