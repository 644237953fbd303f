import {
  context as contextApi,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
} from '@opentelemetry/api';
import { extractTraceContext, isUntracedPath } from '@reelstream/platform-telemetry';
import type { Request, RequestHandler, Response } from 'express';

const TRACER = '@reelstream/gateway-service';

/**
 * Every request runs in a server span, so its access-log line, its bus messages and its events
 * carry trace ids. When the OpenTelemetry HTTP instrumentation already opened one (express
 * loaded after `initTelemetry`), that span is used; otherwise (an embedding process that loaded
 * express first) this opens one, continuing an incoming `traceparent`. Goes before the access
 * log: the listeners it adds to the response then run in the request's context.
 */
export function requestSpanMiddleware(): RequestHandler {
  const tracer = trace.getTracer(TRACER);
  return (req, res, next) => {
    // Probes get no span here either (the HTTP instrumentation skips them too).
    if (isUntracedPath(req.originalUrl)) return next();
    let active = contextApi.active();
    const existing = trace.getSpan(active)?.spanContext();
    if (existing === undefined || !isSpanContextValid(existing)) {
      const parent = incomingContext(req);
      const span = tracer.startSpan(
        req.method,
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': req.method, 'url.path': req.originalUrl.split('?')[0] ?? '/' },
        },
        parent,
      );
      active = trace.setSpan(parent, span);
      res.once('close', () => span.end());
    }
    // Body parsing, route handlers and the response's listeners continue from socket events: bind them to this
    // context. Binding an emitter wraps every listener added to it (about 7 % of a registration's CPU), so it is
    // done only when there is a trace to carry: not with tracing off and no incoming traceparent.
    const carried = trace.getSpan(active)?.spanContext();
    if (carried !== undefined && isSpanContextValid(carried)) {
      contextApi.bind(active, req);
      contextApi.bind(active, res);
    }
    res.once('finish', () => describeResponse(req, res, active));
    res.once('close', () => {
      if (!res.writableFinished) describeResponse(req, res, active);
    });
    contextApi.with(active, next);
  };
}

function incomingContext(req: Request): Context {
  const carrier: Record<string, string | undefined> = {
    traceparent: req.get('traceparent'),
    tracestate: req.get('tracestate'),
  };
  return extractTraceContext(carrier);
}

function describeResponse(req: Request, res: Response, active: Context): void {
  const span = trace.getSpan(active);
  const route = (req.route as { path?: unknown } | undefined)?.path;
  span?.setAttribute('http.response.status_code', res.statusCode);
  if (typeof route === 'string') {
    span?.setAttribute('http.route', route);
    span?.updateName(`${req.method} ${route}`);
  }
  if (res.statusCode >= 500) span?.setStatus({ code: SpanStatusCode.ERROR });
}
