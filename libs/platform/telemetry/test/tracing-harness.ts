import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * A real tracer provider for one test file: spans are kept in memory as soon as they end.
 * Registers globally (the decorators use the global API, as in production).
 */
export function installTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  return {
    exporter,
    tracer: trace.getTracer('test'),
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    spanNamed(name: string): ReadableSpan {
      const found = exporter.getFinishedSpans().filter((span) => span.name === name);
      if (found.length !== 1)
        throw new Error(
          `expected one span "${name}", found ${found.length}: ${exporter
            .getFinishedSpans()
            .map((s) => s.name)
            .join(', ')}`,
        );
      return found[0] as ReadableSpan;
    },
    /** Resolves once a span named `name` has ended (handlers run on the consumer's own loop). */
    async waitForSpan(name: string, timeoutMs = 5_000): Promise<ReadableSpan> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = exporter.getFinishedSpans().find((span) => span.name === name);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no span "${name}" ended within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    reset: () => exporter.reset(),
    async uninstall() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** Walks parent links among `spans` from `span` up; returns the span ids on the way (nearest first). */
export function ancestry(span: ReadableSpan, spans: readonly ReadableSpan[]): string[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const chain: string[] = [];
  let parentId = span.parentSpanContext?.spanId;
  while (parentId !== undefined && !chain.includes(parentId)) {
    chain.push(parentId);
    parentId = byId.get(parentId)?.parentSpanContext?.spanId;
  }
  return chain;
}
