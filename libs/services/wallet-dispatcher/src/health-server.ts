/** `GET /healthz` (the process is alive) and `GET /readyz` (back ends reachable, consumers joined) on their own port. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '@reelstream/http';

export interface HealthServer {
  readonly port: number;
  stop(): Promise<void>;
}

export async function startHealthServer(
  port: number,
  host: string | undefined,
  ready: () => Promise<{ ok: boolean; detail: Record<string, unknown> }>,
): Promise<HealthServer> {
  const server: Server = createHttpServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return send(405, { error: 'GET only' });
    if (path === '/healthz') return send(200, { status: 'ok' });
    if (path === '/readyz') {
      ready().then(
        ({ ok, detail }) => send(ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', ...detail }),
        (error: unknown) =>
          send(503, { status: 'not ready', error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
