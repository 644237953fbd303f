import { SpanKind, trace, type Attributes } from '@opentelemetry/api';
import type { EventStore, EventToAppend, ReadAllOptions } from '@reelstream/platform-ports';
import { EventStoreAttributes as E } from './semconv.js';
import { withSpan } from './spans.js';
import { traceContextFields } from './trace-context.js';

export interface TraceEventStoreOptions {
  /** Instrumentation scope of the spans. Default `@reelstream/platform-telemetry/event-store`. */
  tracerName?: string;
}

/**
 * Wraps an EventStore so appends and reads show up as CLIENT spans and every appended event
 * remembers the trace it was written in: the active context's `traceparent`/`tracestate` (the
 * append span's when no span is active, e.g. a timer) go into the event's metadata, unless the
 * writer already set a `traceparent` (an import or a replay that keeps the original). A later reader continues that trace with `contextFromEventMetadata`.
 * Subscriptions pass through: their consumers decide per event which context to continue.
 */
export function traceEventStore(store: EventStore, options: TraceEventStoreOptions = {}): EventStore {
  const tracer = trace.getTracer(options.tracerName ?? '@reelstream/platform-telemetry/event-store');

  return {
    append(streamId, events, appendOptions) {
      const attributes: Attributes = {
        [E.streamId]: streamId,
        [E.eventCount]: events.length,
        [E.eventTypes]: [...new Set(events.map((event) => event.type))],
        [E.expectedRevision]: String(appendOptions.expectedRevision),
      };
      // The caller's context, read before the append span starts: a retried append of the same
      // events in the same operation then stamps the same metadata, so an adapter that checks
      // idempotent re-appends by content still sees identical events.
      const callerStamp = traceContextFields();
      return withSpan(tracer, 'eventstore.append', { kind: SpanKind.CLIENT, attributes }, async (span) => {
        const stamp = callerStamp.traceparent !== undefined ? callerStamp : traceContextFields();
        const result = await store.append(
          streamId,
          events.map((event) => stamped(event, stamp)),
          appendOptions,
        );
        span.setAttribute(E.nextExpectedRevision, result.nextExpectedRevision);
        span.setAttribute(E.position, result.position);
        return result;
      });
    },

    readStream(streamId, readOptions) {
      return withSpan(
        tracer,
        'eventstore.read_stream',
        { kind: SpanKind.CLIENT, attributes: { [E.streamId]: streamId } },
        async (span) => {
          const events = await store.readStream(streamId, readOptions);
          span.setAttribute(E.eventCount, events.length);
          return events;
        },
      );
    },

    streamRevision: (streamId) => store.streamRevision(streamId),

    readAll(readOptions?: ReadAllOptions) {
      return withSpan(tracer, 'eventstore.read_all', { kind: SpanKind.CLIENT }, async (span) => {
        const events = await store.readAll(readOptions);
        span.setAttribute(E.eventCount, events.length);
        return events;
      });
    },

    subscribeToAll: (subscribeOptions) => store.subscribeToAll(subscribeOptions),
    comparePositions: (a, b) => store.comparePositions(a, b),
    close: () => store.close(),
  };
}

function stamped(event: EventToAppend, stamp: { traceparent?: string; tracestate?: string }): EventToAppend {
  if (stamp.traceparent === undefined || typeof event.metadata?.traceparent === 'string') return event;
  return { ...event, metadata: { ...event.metadata, ...stamp } };
}
