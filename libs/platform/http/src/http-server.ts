import { createServer, type RequestListener, type Server } from 'node:http';
import { processDrain, type DrainSignal } from './drain-signal.js';

export interface HttpServerTimeouts {
  /** The whole request, headers and body, must arrive within this; else 408 and the connection closes. Default 30 s. */
  requestTimeoutMs?: number;
  /** The headers must arrive within this (at most `requestTimeoutMs`). Default 10 s. */
  headersTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this. Default 65 s: longer than a load balancer's usual 60 s, so the balancer closes first. */
  keepAliveTimeoutMs?: number;
  /**
   * Once it drains, every answer says `Connection: close` and its connection closes after it, so
   * keep-alive clients move to another pod during the drain instead of being cut off by the hard
   * close at its end. Default the process's (`processDrain`).
   */
  drain?: DrainSignal;
}

export const DEFAULT_HTTP_TIMEOUTS: Required<Omit<HttpServerTimeouts, 'drain'>> = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 65_000,
};

/**
 * Every HTTP server of the platform: node's defaults let a client that sends its headers and
 * then trickles the body hold a connection (and its memory) for 5 minutes. Node enforces these
 * limits on a timer (`connectionsCheckingInterval`, 30 s by default), so the timer here runs
 * often enough for the limit to mean what it says.
 */
export function createHttpServer(handler: RequestListener, timeouts: HttpServerTimeouts = {}): Server {
  const requestTimeout = timeouts.requestTimeoutMs ?? DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs;
  const drain = timeouts.drain ?? processDrain;
  const headersTimeout = Math.min(timeouts.headersTimeoutMs ?? DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs, requestTimeout);
  const server = createServer(
    {
      requestTimeout,
      headersTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
    },
    (request, response) => {
      if (drain.draining) response.setHeader('Connection', 'close');
      handler(request, response);
    },
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs ?? DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs;
  return server;
}
