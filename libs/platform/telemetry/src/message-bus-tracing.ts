import {
  ROOT_CONTEXT,
  SpanKind,
  context as contextApi,
  isSpanContextValid,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import {
  BusHeaders,
  type Consumer,
  type Message,
  type MessageBus,
  type MessageHandler,
  type OutgoingMessage,
  type RequestOptions,
  type SubscribeOptions,
} from '@reelstream/platform-ports';
import { MessagingAttributes as M } from './semconv.js';
import { withSpan } from './spans.js';
import { extractTraceContext, injectTraceContext } from './trace-context.js';

export interface TraceMessageBusOptions {
  /** Instrumentation scope of the spans. Default `@reelstream/platform-telemetry/message-bus`. */
  tracerName?: string;
  /** `messaging.system` of every span: `kafka` or `sqlite`. Default `sqlite`. */
  system?: string;
}

/**
 * Wraps a MessageBus so every hop carries W3C trace context and shows up as spans:
 * - `publish`: one PRODUCER span `send {topic}` per call; each message gets the span's
 *   `traceparent`/`tracestate` in its headers, on a copy (the caller's objects are untouched).
 *   A message that already has a `traceparent` keeps it: that is how a relay re-publishes a
 *   stored event in the trace that appended it, instead of the relay's own polling loop. When no
 *   span is active (the relay's or outbox's loop), the send span itself continues that trace (the
 *   first message's; the others are links) and its messages of that trace name it as parent.
 * - `subscribe`: each delivery runs in a CONSUMER span `process {topic}` whose parent is the
 *   context found in the message headers (a new trace when there is none), so whatever the
 *   handler logs, appends or publishes joins the producer's trace.
 * - `request`: one CLIENT span `send {topic}` covering the publish and the wait for the reply.
 * Failures are recorded on the span (status ERROR) and rethrown unchanged.
 */
export function traceMessageBus(bus: MessageBus, options: TraceMessageBusOptions = {}): MessageBus {
  const tracer = trace.getTracer(options.tracerName ?? '@reelstream/platform-telemetry/message-bus');
  const system = options.system ?? 'sqlite';

  return {
    publish(topic, messages) {
      const batch: readonly OutgoingMessage[] = Array.isArray(messages) ? messages : [messages as OutgoingMessage];
      const relayed = relayedContexts(batch);
      return withSpan(
        tracer,
        `send ${topic}`,
        {
          kind: SpanKind.PRODUCER,
          attributes: sendAttributes(system, topic, batch),
          ...(relayed ? { parent: relayed.parent, links: relayed.links } : {}),
        },
        (span) =>
          bus.publish(
            topic,
            batch.map((message) => (relayed ? inSendSpan(message, span) : withTraceHeaders(message))),
          ),
      );
    },

    subscribe(subscribeOptions: SubscribeOptions): Promise<Consumer> {
      const handler = traceHandler(tracer, system, subscribeOptions.groupId, subscribeOptions.handler);
      return bus.subscribe({ ...subscribeOptions, handler });
    },

    request(topic: string, message: OutgoingMessage, requestOptions: RequestOptions): Promise<Message> {
      const attributes = sendAttributes(system, topic, [message]);
      if (requestOptions.correlationId !== undefined) attributes[M.conversationId] = requestOptions.correlationId;
      return withSpan(tracer, `send ${topic}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
        const response = await bus.request(topic, withTraceHeaders(message), requestOptions);
        const correlationId = response.headers[BusHeaders.correlationId];
        if (correlationId !== undefined) span.setAttribute(M.conversationId, correlationId);
        return response;
      });
    },

    close: () => bus.close(),
  };
}

/**
 * A relay or an outbox publishes from its own loop, where no span is active, messages that carry
 * the trace context their events were stored with. Its send span then continues the first such
 * trace (and links the others of the batch) instead of starting a root trace of its own.
 */
function relayedContexts(batch: readonly OutgoingMessage[]): { parent: Context; links: Link[] } | undefined {
  const active = trace.getSpan(contextApi.active())?.spanContext();
  if (active && isSpanContextValid(active)) return undefined;
  const carried = batch
    .map((message) => extractTraceContext(message.headers ?? {}))
    .map((ctx) => ({ ctx, span: trace.getSpanContext(ctx) }))
    .filter(
      (entry): entry is { ctx: Context; span: SpanContext } =>
        entry.span !== undefined && isSpanContextValid(entry.span),
    );
  const [first, ...rest] = carried;
  if (!first) return undefined;
  const linked = new Set<string>([first.span.spanId]);
  const links: Link[] = [];
  for (const { span } of rest) {
    if (linked.has(span.spanId)) continue;
    linked.add(span.spanId);
    links.push({ context: span });
  }
  return { parent: first.ctx, links };
}

/** A relayed message of the send span's trace now names the send span as its parent; one of another trace keeps its own. */
function inSendSpan(message: OutgoingMessage, span: Span): OutgoingMessage {
  const carried = trace.getSpanContext(extractTraceContext(message.headers ?? {}));
  if (carried && isSpanContextValid(carried) && carried.traceId !== span.spanContext().traceId) return message;
  const headers = { ...message.headers };
  delete headers[BusHeaders.traceparent];
  delete headers[BusHeaders.tracestate];
  injectTraceContext(headers, trace.setSpan(contextApi.active(), span));
  return { ...message, headers };
}

function withTraceHeaders(message: OutgoingMessage): OutgoingMessage {
  const headers = { ...message.headers };
  if (headers[BusHeaders.traceparent] === undefined) injectTraceContext(headers);
  return { ...message, headers };
}

function sendAttributes(system: string, topic: string, batch: readonly OutgoingMessage[]): Attributes {
  const attributes: Attributes = {
    [M.system]: system,
    [M.destinationName]: topic,
    [M.operationName]: 'send',
    [M.operationType]: 'send',
  };
  const only = batch.length === 1 ? batch[0] : undefined;
  if (only) attributes[M.kafkaMessageKey] = only.key;
  else attributes[M.batchMessageCount] = batch.length;
  return attributes;
}

function traceHandler(tracer: Tracer, system: string, groupId: string, handler: MessageHandler): MessageHandler {
  return (message, consumerContext) => {
    const parent: Context = extractTraceContext(message.headers, ROOT_CONTEXT);
    const attributes: Attributes = {
      [M.system]: system,
      [M.destinationName]: message.topic,
      [M.partitionId]: String(message.partition),
      [M.kafkaOffset]: offsetAttribute(message.offset),
      [M.kafkaMessageKey]: message.key,
      [M.consumerGroupName]: groupId,
      [M.operationName]: 'process',
      [M.operationType]: 'process',
      [M.deliveryAttempt]: consumerContext.attempt,
    };
    const correlationId = message.headers[BusHeaders.correlationId];
    if (correlationId !== undefined) attributes[M.conversationId] = correlationId;
    return withSpan(tracer, `process ${message.topic}`, { kind: SpanKind.CONSUMER, attributes, parent }, () =>
      handler(message, consumerContext),
    );
  };
}

/** Offsets are decimal strings in the port; the conventions want an int, which we give while it is exact. */
function offsetAttribute(offset: string): number | string {
  const asNumber = Number(offset);
  return Number.isSafeInteger(asNumber) ? asNumber : offset;
}
