/**
 * The one pair of health endpoints every service answers: `GET /healthz` (the process serves
 * HTTP) and `GET /readyz` (the service's own probe: back ends reachable, consumers joined, not
 * draining). A service with an HTTP API mounts `healthEndpoints` in front of it; the ledger and the
 * dispatcher, which have no other HTTP, serve the same answers on a port of their own (`startHealthServer`).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { processDataDirs } from './data-dirs.js';
import { processDrain, type DrainSignal } from './drain-signal.js';
import { closeGracefully } from './graceful-close.js';
import { createHttpServer } from './http-server.js';

export interface Readiness {
  ready: boolean;
  /** The answer's `status` when not ready; default `not ready` (e.g. `draining`, `unavailable`). */
  status?: string;
  /** More fields of the answer, ready or not: which consumers, why. */
  detail?: Record<string, unknown>;
}

/** Throwing counts as not ready: the answer is 503 `unavailable` with the error's message as `reason`. */
export type ReadinessProbe = () => Promise<Readiness> | Readiness;

const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

function send(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/**
 * Answers a GET (or HEAD) of /healthz or /readyz and returns true; returns false for anything else.
 * While `drain` is draining, `/readyz` is 503 `draining` without asking the probe; `/healthz` stays 200.
 */
function answerHealth(
  request: IncomingMessage,
  response: ServerResponse,
  probe: ReadinessProbe,
  drain: DrainSignal,
): boolean {
  const path = (request.url ?? '').split('?')[0] ?? '';
  if (!HEALTH_PATHS.has(path) || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  if (path === '/healthz') {
    send(response, 200, { status: 'ok' });
    return true;
  }
  if (drain.draining) {
    send(response, 503, { status: 'draining' });
    return true;
  }
  const disk = processDataDirs.problem();
  if (disk !== undefined) {
    send(response, 503, { status: 'unavailable', reason: disk });
    return true;
  }
  Promise.resolve()
    .then(probe)
    .then(
      ({ ready, status, detail }) =>
        send(response, ready ? 200 : 503, { status: ready ? 'ready' : (status ?? 'not ready'), ...detail }),
      (error: unknown) =>
        send(response, 503, { status: 'unavailable', reason: error instanceof Error ? error.message : String(error) }),
    );
  return true;
}

/**
 * The endpoints as a middleware in front of a service's routes (express or any `(req, res, next)` stack);
 * `drain` defaults to the process's (`processDrain`).
 */
export function healthEndpoints(probe: ReadinessProbe, drain: DrainSignal = processDrain) {
  return (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    if (!answerHealth(request, response, probe, drain)) next();
  };
}

export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

/** The endpoints on a port of their own (0 picks a free one); any other request is 404, any other method 405. */
export async function startHealthServer(
  listen: { port: number; host?: string | undefined },
  probe: ReadinessProbe,
  drain: DrainSignal = processDrain,
): Promise<HealthServer> {
  const server: Server = createHttpServer((request, response) => {
    if (answerHealth(request, response, probe, drain)) return;
    const known = HEALTH_PATHS.has((request.url ?? '').split('?')[0] ?? '');
    send(response, known ? 405 : 404, { status: known ? 'method not allowed' : 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => closeGracefully(server, 0),
  };
}
