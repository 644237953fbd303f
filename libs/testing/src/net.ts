import { createServer } from 'node:net';

/**
 * A port free now, below Linux's ephemeral range (32768–60999) and not one of `taken`. A port handed to
 * a process that binds it later must not meanwhile become the local port of an outgoing connection or
 * of another process listening on port 0, which both draw from that range; and a process restarted on
 * its port finds it free again.
 */
export async function freePort(taken: ReadonlySet<number> = new Set()): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!taken.has(port) && (await canListen(port))) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** The status a GET of `url` answers, or `refused` when nothing answers. */
export async function httpStatus(url: string): Promise<number | 'refused'> {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 'refused';
  }
}
