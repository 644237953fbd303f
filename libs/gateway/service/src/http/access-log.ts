import {
  context as contextApi,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
} from '@opentelemetry/api';
import { extractTraceContext, type Logger } from '@reelstream/telemetry';
import { answeredErrorCode } from '@reelstream/http';
import type { Request, RequestHandler, Response } from 'express';
import { requestContext } from './request-context.js';

const TRACER = '@reelstream/service-gateway';

/**
 * One structured access-log line per request, in the request's trace. When the OpenTelemetry
 * HTTP instrumentation already opened a server span (express loaded after `initTelemetry`),
 * that span is used; otherwise (an embedding process that loaded express first) this opens
 * one, continuing an incoming `traceparent`, so logs, bus messages and events still carry
 * trace ids.
 */
export function accessLogMiddleware(logger: Logger): RequestHandler {
  const tracer = trace.getTracer(TRACER);
  return (req, res, next) => {
    const started = performance.now();
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
    // Body parsing and route handlers continue from socket events: bind them to this context.
    contextApi.bind(active, req);
    contextApi.bind(active, res);
    res.once('finish', () => contextApi.with(active, () => finish(logger, req, res, started, active)));
    res.once('close', () => {
      if (!res.writableFinished) contextApi.with(active, () => finish(logger, req, res, started, active, true));
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

function finish(logger: Logger, req: Request, res: Response, started: number, active: Context, aborted = false): void {
  const { requestId, operator } = requestContext(res);
  const errorCode = answeredErrorCode(res);
  const span = trace.getSpan(active);
  const route = (req.route as { path?: unknown } | undefined)?.path;
  span?.setAttribute('http.response.status_code', res.statusCode);
  if (typeof route === 'string') {
    span?.setAttribute('http.route', route);
    span?.updateName(`${req.method} ${route}`);
  }
  if (res.statusCode >= 500) span?.setStatus({ code: SpanStatusCode.ERROR });
  const fields = {
    requestId,
    method: req.method,
    path: req.originalUrl.split('?')[0],
    ...(typeof route === 'string' ? { route } : {}),
    status: res.statusCode,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    ...(operator !== undefined ? { operatorId: operator.id } : {}),
    ...(errorCode !== undefined ? { errorCode } : {}),
    ...(aborted ? { aborted: true } : {}),
  };
  if (res.statusCode >= 500) logger.warn('http request', fields);
  else logger.info('http request', fields);
}
