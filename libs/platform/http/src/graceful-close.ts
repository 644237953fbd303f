import type { Server } from 'node:http';

/**
 * Stops accepting, lets the requests in flight finish (up to `drainMs`), then closes every
 * connection: idle keep-alive connections at once, so a drain is not held up by clients that
 * sent nothing.
 */
export async function closeGracefully(server: Server, drainMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), drainMs);
  try {
    await closed;
  } finally {
    clearTimeout(timer);
  }
}

/** Where a client on this machine reaches a server listening on `host` (all interfaces when unset): `http://127.0.0.1:8080`, `http://[::1]:8080`. */
export function reachableUrl(host: string | undefined, port: number): string {
  const reachable = host === undefined || host === '::' || host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
