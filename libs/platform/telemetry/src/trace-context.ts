import {
  ROOT_CONTEXT,
  context as contextApi,
  defaultTextMapGetter,
  defaultTextMapSetter,
  type Context,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { traceHeadersOf, type EventMetadata } from '@reelstream/platform-ports';

/**
 * Bus headers and event metadata always speak W3C trace context (`traceparent`, `tracestate`),
 * whatever `OTEL_PROPAGATORS` says for HTTP: they are our own wire formats, read by our own
 * consumers, and a stored event must stay readable after the propagator setting changes.
 */
const w3c = new W3CTraceContextPropagator();

/** A plain string map that carries trace context: bus headers, event metadata fields. */
export type TraceCarrier = Record<string, string>;

/**
 * Writes `traceparent` (and `tracestate` when there is one) of `ctx`'s span into `carrier`
 * and returns it. Writes nothing when the context holds no valid span (tracing disabled or
 * suppressed), so an absent `traceparent` always means "no trace", never a made-up one.
 */
export function injectTraceContext(carrier: TraceCarrier, ctx: Context = contextApi.active()): TraceCarrier {
  w3c.inject(ctx, carrier, defaultTextMapSetter);
  return carrier;
}

/**
 * The context described by `carrier`: a remote parent span when it holds a valid `traceparent`.
 * The base defaults to the root context, not the active one: a message without trace context
 * starts a new trace instead of silently joining whatever span the caller happened to be in.
 */
export function extractTraceContext(
  carrier: Readonly<Record<string, string | undefined>>,
  base: Context = ROOT_CONTEXT,
): Context {
  return w3c.extract(base, carrier, defaultTextMapGetter);
}

/** Continues the trace an event was appended in (see `traceEventStore`), e.g. in a projection or relay. */
export function contextFromEventMetadata(metadata: EventMetadata | undefined, base: Context = ROOT_CONTEXT): Context {
  if (!metadata) return base;
  return extractTraceContext(traceHeadersOf(metadata), base);
}

/** The trace context fields of `ctx` as metadata fields (empty when there is no valid span). */
export function traceContextFields(ctx: Context = contextApi.active()): { traceparent?: string; tracestate?: string } {
  const carrier: TraceCarrier = {};
  injectTraceContext(carrier, ctx);
  const fields: { traceparent?: string; tracestate?: string } = {};
  if (carrier['traceparent'] !== undefined) fields.traceparent = carrier['traceparent'];
  if (carrier['tracestate'] !== undefined) fields.tracestate = carrier['tracestate'];
  return fields;
}
