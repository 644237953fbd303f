import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { isWrongExpectedRevision } from '@reelstream/platform-ports';
import { traceEventStore } from '../src/event-store-tracing.js';
import { contextFromEventMetadata } from '../src/trace-context.js';
import { RecordingEventStore } from './recording-event-store.js';
import { installTracing } from './tracing-harness.js';

const tracing = installTracing();
afterAll(() => tracing.uninstall());
beforeEach(() => tracing.reset());

const registered = (n: number) => ({ type: 'BonusCallRegistered', data: { n }, metadata: { correlationId: `c-${n}` } });

describe('traceEventStore', () => {
  it('stamps the active span into the metadata of every appended event', async () => {
    const inner = new RecordingEventStore();
    const store = traceEventStore(inner);
    const span = tracing.tracer.startSpan('handle CancelBonusCall');

    await context.with(trace.setSpan(context.active(), span), () =>
      store.append('playerBonus-op-p1', [registered(1), registered(2)], { expectedRevision: 'no_stream' }),
    );
    span.end();

    const { traceId, spanId } = span.spanContext();
    const stored = await inner.readStream('playerBonus-op-p1');
    expect(stored.map((event) => event.metadata)).toEqual([
      { correlationId: 'c-1', traceparent: `00-${traceId}-${spanId}-01` },
      { correlationId: 'c-2', traceparent: `00-${traceId}-${spanId}-01` },
    ]);
    const append = tracing.spanNamed('eventstore.append');
    expect(append.kind).toBe(SpanKind.CLIENT);
    expect(append.parentSpanContext?.spanId).toBe(spanId);
    expect(append.attributes).toMatchObject({
      'reelstream.eventstore.stream_id': 'playerBonus-op-p1',
      'reelstream.eventstore.event_count': 2,
      'reelstream.eventstore.event_types': ['BonusCallRegistered'],
      'reelstream.eventstore.expected_revision': 'no_stream',
      'reelstream.eventstore.next_expected_revision': 1,
    });
  });

  it('leaves the caller’s events untouched and keeps a traceparent the writer set', async () => {
    const inner = new RecordingEventStore();
    const store = traceEventStore(inner);
    const original = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    const events = [registered(1), { type: 'Imported', data: {}, metadata: { traceparent: original } }];
    const span = tracing.tracer.startSpan('import');

    await context.with(trace.setSpan(context.active(), span), () =>
      store.append('s-1', events, { expectedRevision: 'any' }),
    );
    span.end();

    expect(events[0]?.metadata).toEqual({ correlationId: 'c-1' });
    const stored = await inner.readStream('s-1');
    expect(stored[1]?.metadata).toEqual({ traceparent: original });
    expect(stored[0]?.metadata['traceparent']).toContain(span.spanContext().traceId);
  });

  it('stamps the same metadata when an operation retries the same append', async () => {
    const inner = new RecordingEventStore();
    const store = traceEventStore(inner);
    const span = tracing.tracer.startSpan('retrying handler');

    await context.with(trace.setSpan(context.active(), span), async () => {
      await store.append('s-2', [registered(1)], { expectedRevision: 'no_stream' });
      await expect(store.append('s-2', [registered(1)], { expectedRevision: 'no_stream' })).rejects.toThrow();
    });
    span.end();

    const [first, retry] = inner.appended;
    expect(retry?.events[0]?.metadata).toEqual(first?.events[0]?.metadata);
  });

  it('stamps the append span itself when no span is active, so a timer still starts a trace', async () => {
    const inner = new RecordingEventStore();
    const store = traceEventStore(inner);

    await store.append('s-3', [{ type: 'BonusCallExpired', data: {} }], { expectedRevision: 'any' });

    const append = tracing.spanNamed('eventstore.append');
    expect(append.parentSpanContext).toBeUndefined();
    const [stored] = await inner.readStream('s-3');
    const continued = trace.getSpanContext(contextFromEventMetadata(stored?.metadata));
    expect(continued).toMatchObject({ traceId: append.spanContext().traceId, spanId: append.spanContext().spanId });
  });

  it('records a failed append on its span and rethrows the store’s error unchanged', async () => {
    const store = traceEventStore(new RecordingEventStore());
    await store.append('s-4', [registered(1)], { expectedRevision: 'no_stream' });
    tracing.reset();

    const failure = await store
      .append('s-4', [registered(2)], { expectedRevision: 'no_stream' })
      .catch((error: unknown) => error);

    expect(isWrongExpectedRevision(failure)).toBe(true);
    const append = tracing.spanNamed('eventstore.append');
    expect(append.status.code).toBe(SpanStatusCode.ERROR);
    expect(append.attributes['error.type']).toBe('WrongExpectedRevisionError');
    expect(append.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('traces stream and global reads with the number of events read', async () => {
    const store = traceEventStore(new RecordingEventStore());
    await store.append('s-5', [registered(1), registered(2), registered(3)], { expectedRevision: 'any' });
    tracing.reset();

    expect(await store.readStream('s-5')).toHaveLength(3);
    expect(await store.readAll({ fromPosition: '1' })).toHaveLength(2);

    expect(tracing.spanNamed('eventstore.read_stream').attributes).toMatchObject({
      'reelstream.eventstore.stream_id': 's-5',
      'reelstream.eventstore.event_count': 3,
    });
    expect(tracing.spanNamed('eventstore.read_all').attributes).toMatchObject({
      'reelstream.eventstore.event_count': 2,
    });
    expect(await store.streamRevision('s-5')).toBe(2);
    expect(store.comparePositions('1', '2')).toBeLessThan(0);
  });
});
