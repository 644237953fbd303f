import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import {
  isRequestTimeout,
  reply,
  type Message,
  type MessageBus,
  type OutgoingMessage,
} from '@reelstream/platform-ports';
import { traceMessageBus } from '../src/message-bus-tracing.js';
import { InMemoryBus } from './in-memory-bus.js';
import { ancestry, installTracing } from './tracing-harness.js';

const tracing = installTracing();
afterAll(() => tracing.uninstall());

let inner: InMemoryBus;
let bus: MessageBus;
beforeEach(() => {
  tracing.reset();
  inner = new InMemoryBus();
  bus = traceMessageBus(inner, { system: 'sqlite' });
});
afterEach(() => bus.close());

function inSpan<T>(name: string, work: () => Promise<T>): Promise<{ result: T; spanId: string; traceId: string }> {
  const span = tracing.tracer.startSpan(name);
  return context.with(trace.setSpan(context.active(), span), async () => {
    try {
      return { result: await work(), ...span.spanContext() };
    } finally {
      span.end();
    }
  });
}

/** Subscribes and resolves with the first message the handler finished (or failed) on, and the handler's active span. */
function consumeOne(
  topics: string[],
  handler: (message: Message) => Promise<void> = async () => undefined,
  maxAttempts = 1,
) {
  let done!: (seen: { message: Message; activeSpanId: string | undefined }) => void;
  const seen = new Promise<{ message: Message; activeSpanId: string | undefined }>((resolve) => (done = resolve));
  const consumer = bus.subscribe({
    groupId: 'ledger',
    topics,
    maxAttempts,
    handler: async (message) => {
      const activeSpanId = trace.getActiveSpan()?.spanContext().spanId;
      try {
        await handler(message);
      } finally {
        done({ message, activeSpanId });
      }
    },
  });
  return { consumer, seen };
}

describe('traceMessageBus', () => {
  it('publishes in a PRODUCER span whose context travels in the headers to a CONSUMER child span', async () => {
    const { consumer, seen } = consumeOne(['bonus.commands']);
    await consumer;
    const started = await inSpan('gateway request', () =>
      bus.publish('bonus.commands', { key: 'p-1', value: { type: 'CancelBonusCall' } }),
    );
    const { message, activeSpanId } = await seen;
    await tracing.waitForSpan('process bonus.commands');
    await (await consumer).stop();

    const producer = tracing.spanNamed('send bonus.commands');
    const consumerSpan = tracing.spanNamed('process bonus.commands');
    expect(producer.kind).toBe(SpanKind.PRODUCER);
    expect(producer.parentSpanContext?.spanId).toBe(started.spanId);
    expect(producer.attributes).toEqual({
      'messaging.system': 'sqlite',
      'messaging.destination.name': 'bonus.commands',
      'messaging.operation.name': 'send',
      'messaging.operation.type': 'send',
      'messaging.kafka.message.key': 'p-1',
    });
    expect(message.headers['traceparent']).toBe(`00-${started.traceId}-${producer.spanContext().spanId}-01`);

    expect(consumerSpan.kind).toBe(SpanKind.CONSUMER);
    expect(consumerSpan.spanContext().traceId).toBe(started.traceId);
    expect(consumerSpan.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    expect(ancestry(consumerSpan, tracing.spans())).toEqual([producer.spanContext().spanId, started.spanId]);
    expect(activeSpanId).toBe(consumerSpan.spanContext().spanId);
    expect(consumerSpan.attributes).toEqual({
      'messaging.system': 'sqlite',
      'messaging.destination.name': 'bonus.commands',
      'messaging.destination.partition.id': '0',
      'messaging.kafka.offset': 0,
      'messaging.kafka.message.key': 'p-1',
      'messaging.consumer.group.name': 'ledger',
      'messaging.operation.name': 'process',
      'messaging.operation.type': 'process',
      'reelstream.messaging.delivery_attempt': 1,
    });
  });

  it('parents the consumer span on the message, not on whatever was active when the consumer started', async () => {
    const { result: consuming } = await inSpan('process startup', async () => consumeOne(['bonus.commands']));
    await consuming.consumer;
    await inSpan('request', () => bus.publish('bonus.commands', { key: 'p-1', value: {} }));
    await tracing.waitForSpan('process bonus.commands');

    const consumerSpan = tracing.spanNamed('process bonus.commands');
    expect(consumerSpan.parentSpanContext?.spanId).toBe(tracing.spanNamed('send bonus.commands').spanContext().spanId);
    expect(consumerSpan.spanContext().traceId).not.toBe(tracing.spanNamed('process startup').spanContext().traceId);
  });

  it('starts a new trace for a message that carries no trace context', async () => {
    await inner.publish('bonus.commands', { key: 'p-2', value: {} });
    consumeOne(['bonus.commands']);

    const consumerSpan = await tracing.waitForSpan('process bonus.commands');
    expect(consumerSpan.parentSpanContext).toBeUndefined();
    expect(consumerSpan.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps a traceparent the caller set and never mutates the caller’s messages', async () => {
    const relayed = `00-${'c'.repeat(32)}-${'d'.repeat(16)}-01`;
    const messages: OutgoingMessage[] = [
      { key: 'p-1', value: { n: 1 }, headers: { traceparent: relayed } },
      { key: 'p-2', value: { n: 2 }, headers: { 'x-kind': 'event' } },
      { key: 'p-3', value: { n: 3 } },
    ];

    const started = await inSpan('relay', () => bus.publish('bonus.events', messages));

    const producer = tracing.spanNamed('send bonus.events');
    expect(producer.attributes['messaging.batch.message_count']).toBe(3);
    expect(producer.attributes).not.toHaveProperty('messaging.kafka.message.key');
    const own = `00-${started.traceId}-${producer.spanContext().spanId}-01`;
    expect(inner.messages('bonus.events').map((m) => m.headers)).toEqual([
      { traceparent: relayed },
      { 'x-kind': 'event', traceparent: own },
      { traceparent: own },
    ]);
    expect(messages[1]?.headers).toEqual({ 'x-kind': 'event' });
    expect(messages[2]).not.toHaveProperty('headers');
  });

  it('continues the stored trace when a relay publishes from its own loop (no active span): parent, links, headers', async () => {
    const stored = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    const other = `00-${'e'.repeat(32)}-${'f'.repeat(16)}-01`;
    const messages: OutgoingMessage[] = [
      { key: 'p-1', value: { n: 1 }, headers: { traceparent: stored } },
      { key: 'p-1', value: { n: 2 }, headers: { traceparent: stored } },
      { key: 'p-2', value: { n: 3 }, headers: { traceparent: other } },
    ];

    await context.with(ROOT_CONTEXT, () => bus.publish('wallet.requests', messages));

    const producer = tracing.spanNamed('send wallet.requests');
    expect(producer.spanContext().traceId).toBe('a'.repeat(32));
    expect(producer.parentSpanContext?.spanId).toBe('b'.repeat(16));
    expect(producer.links.map((link) => link.context.spanId)).toEqual(['f'.repeat(16)]);
    const own = `00-${'a'.repeat(32)}-${producer.spanContext().spanId}-01`;
    // The consumer of a message of the continued trace is the send span's child; the other trace keeps its parent.
    expect(inner.messages('wallet.requests').map((m) => m.headers['traceparent'])).toEqual([own, own, other]);
    expect(messages[0]?.headers).toEqual({ traceparent: stored });
  });

  it('records a failing handler on the consumer span, with its attempt, and lets the bus see the error', async () => {
    const failure = new Error('ledger unavailable');
    consumeOne(['wallet.requests'], () => Promise.reject(failure));
    await bus.publish('wallet.requests', { key: 'p-1', value: {} });

    const consumerSpan = await tracing.waitForSpan('process wallet.requests');
    await bus.close();
    expect(inner.handlerErrors).toEqual([failure]);
    expect(consumerSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ledger unavailable' });
    expect(consumerSpan.attributes['error.type']).toBe('Error');
    expect(consumerSpan.events[0]?.name).toBe('exception');
    expect(consumerSpan.events[0]?.attributes?.['exception.message']).toBe('ledger unavailable');
  });

  it('records a failed publish and rethrows it unchanged', async () => {
    const refusing: MessageBus = {
      publish: () => Promise.reject(new Error('broker down')),
      subscribe: (options) => inner.subscribe(options),
      request: (topic, message, options) => inner.request(topic, message, options),
      close: () => inner.close(),
    };
    const traced = traceMessageBus(refusing);

    await expect(traced.publish('bonus.commands', { key: 'p', value: {} })).rejects.toThrow('broker down');
    const producer = tracing.spanNamed('send bonus.commands');
    expect(producer.status.code).toBe(SpanStatusCode.ERROR);
    expect(producer.attributes['messaging.system']).toBe('sqlite');
  });

  it('traces request/reply: a CLIENT span around the round trip, the responder in its trace', async () => {
    const responder = await bus.subscribe({
      groupId: 'ledger',
      topics: ['bonus.commands'],
      handler: (message) => reply(bus, message, { ok: true }),
    });

    const started = await inSpan('gateway request', () =>
      bus.request(
        'bonus.commands',
        { key: 'p-1', value: {} },
        { replyTopic: 'bonus.replies', timeoutMs: 2_000, correlationId: 'corr-1' },
      ),
    );
    await responder.stop();

    expect(started.result.value).toEqual({ ok: true });
    const client = tracing.spanNamed('send bonus.commands');
    expect(client.kind).toBe(SpanKind.CLIENT);
    expect(client.attributes['messaging.message.conversation_id']).toBe('corr-1');
    const handler = tracing.spanNamed('process bonus.commands');
    expect(handler.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect(handler.attributes['messaging.message.conversation_id']).toBe('corr-1');
    const replySend = tracing.spanNamed('send bonus.replies');
    expect(replySend.parentSpanContext?.spanId).toBe(handler.spanContext().spanId);
    expect(replySend.spanContext().traceId).toBe(started.traceId);
  });

  it('marks a request that times out as failed', async () => {
    const failure = await bus
      .request('bonus.commands', { key: 'p-1', value: {} }, { replyTopic: 'bonus.replies', timeoutMs: 20 })
      .catch((error: unknown) => error);

    expect(isRequestTimeout(failure)).toBe(true);
    const client = tracing.spanNamed('send bonus.commands');
    expect(client.status.code).toBe(SpanStatusCode.ERROR);
    expect(client.attributes['error.type']).toBe('RequestTimeoutError');
  });
});
