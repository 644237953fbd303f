import type { IncomingMessage, ServerResponse } from 'node:http';
import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';

/** What express puts on a request once a route matched (typed here so telemetry needs no express import). */
type RoutedRequest = IncomingMessage & { baseUrl?: string; route?: { path?: unknown } };

/**
 * Express middleware that tells the HTTP instrumentation which route answered: `http.route` on the
 * server span (renamed `{method} {route}`, e.g. `POST /api/v1/sessions/:sessionId/spins`) and on
 * `http_server_request_duration`. The route is read when the response ends, inside the matched
 * handler, so a mounted router's prefix (`baseUrl`) is still there. A request no route matched keeps
 * the bare method as span name and gets no `http.route`: never the raw path, whose ids would make
 * one series per player.
 */
export function recordHttpRoute() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const metadata = getRPCMetadata(context.active());
    if (metadata?.type === RPCType.HTTP) {
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        const routed = req as RoutedRequest;
        const path = routed.route?.path;
        if (typeof path === 'string') metadata.route = `${routed.baseUrl ?? ''}${path}`;
        return end(...args);
      }) as ServerResponse['end'];
    }
    next();
  };
}
