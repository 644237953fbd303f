/** `GET /healthz` (the process is alive) and `GET /readyz` (back ends reachable, consumer joined). */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '@reelstream/http';

export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startHealthServer(port: number, ready: () => Promise<boolean>): Promise<HealthServer> {
  const server: Server = createHttpServer((request, response) => {
    const answer = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET') return answer(405, { status: 'method not allowed' });
    if (path === '/healthz') return answer(200, { status: 'ok' });
    if (path === '/readyz') {
      ready().then(
        (isReady) => answer(isReady ? 200 : 503, { status: isReady ? 'ready' : 'not ready' }),
        (error: unknown) =>
          answer(503, { status: 'not ready', reason: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    answer(404, { status: 'not found' });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}
