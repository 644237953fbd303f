import {
  SpanStatusCode,
  context as contextApi,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanKind,
  type Tracer,
} from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from './semconv.js';

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent context. Default: the active one. */
  parent?: Context;
  links?: Link[];
}

/** Marks `span` as failed by `error`: exception event, `error.type`, status ERROR. */
function recordFailure(span: Span, error: unknown): void {
  if (error instanceof Error) {
    span.recordException(error);
    span.setAttribute(ATTR_ERROR_TYPE, error.name);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  } else {
    span.recordException(String(error));
    span.setAttribute(ATTR_ERROR_TYPE, '_OTHER');
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
  }
}

/**
 * Runs `work` inside a new span that is active for everything `work` awaits, ends it when
 * `work` settles, and records a thrown error on it before rethrowing.
 */
export async function withSpan<T>(
  tracer: Tracer,
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? contextApi.active();
  const span = tracer.startSpan(
    name,
    {
      ...(options.kind !== undefined ? { kind: options.kind } : {}),
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.links && options.links.length > 0 ? { links: options.links } : {}),
    },
    parent,
  );
  try {
    return await contextApi.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    recordFailure(span, error);
    throw error;
  } finally {
    span.end();
  }
}
