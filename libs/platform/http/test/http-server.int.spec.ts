import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import { createHttpServer, DEFAULT_HTTP_TIMEOUTS, DrainSignal } from '../src/index.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server that reads the whole body and answers its length. */
async function listening(timeouts: Parameters<typeof createHttpServer>[1]): Promise<number> {
  const server = createHttpServer((req, res) => {
    let length = 0;
    req.on('data', (chunk: Buffer) => (length += chunk.length));
    req.on('end', () => res.end(String(length)));
  }, timeouts);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** A raw connection that keeps what the server sent and when it closed. */
function rawClient(port: number): { socket: Socket; received: () => string; closed: Promise<number> } {
  const socket = connect({ host: '127.0.0.1', port });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
  return { socket, received: () => received, closed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many whole answers (headers, and the body their Content-Length names) `text` holds. */
function wholeAnswers(text: string): number {
  let count = 0;
  for (let rest = text; ; count++) {
    const headersEnd = rest.indexOf('\r\n\r\n');
    if (headersEnd < 0) return count;
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(rest.slice(0, headersEnd))?.[1] ?? 0);
    if (rest.length < headersEnd + 4 + length) return count;
    rest = rest.slice(headersEnd + 4 + length);
  }
}

/** Waits until the client received `count` whole answers. */
async function answered(client: { received: () => string }, count: number): Promise<void> {
  await eventually(() => {
    if (wholeAnswers(client.received()) < count)
      throw new Error(
        `waited for ${count} whole answers on the connection; received ${JSON.stringify(client.received())}`,
      );
  });
}

describe('createHttpServer: a slow client cannot hold a connection', () => {
  it('cuts off a client that sends its headers, then trickles the body, within requestTimeoutMs (408)', async () => {
    const port = await listening({ requestTimeoutMs: 1_000, headersTimeoutMs: 500, keepAliveTimeoutMs: 5_000 });
    const client = rawClient(port);
    await once(client.socket, 'connect');
    const started = performance.now();
    client.socket.write(
      'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
    );
    const trickle = setInterval(() => client.socket.writable && client.socket.write('x'), 100);
    try {
      const closedAt = await client.closed;
      const elapsed = closedAt - started;
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(elapsed).toBeGreaterThanOrEqual(950);
      // The limit plus node's check interval (a quarter of the headers limit here) and scheduling slack.
      expect(elapsed).toBeLessThan(2_500);
    } finally {
      clearInterval(trickle);
    }
  });

  it('cuts off a client that trickles its headers, within headersTimeoutMs (408)', async () => {
    const port = await listening({ requestTimeoutMs: 5_000, headersTimeoutMs: 500, keepAliveTimeoutMs: 5_000 });
    const client = rawClient(port);
    await once(client.socket, 'connect');
    const started = performance.now();
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => client.socket.writable && client.socket.write('X-Slow: y\r\n'), 100);
    try {
      const elapsed = (await client.closed) - started;
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(elapsed).toBeGreaterThanOrEqual(450);
      expect(elapsed).toBeLessThan(2_000);
    } finally {
      clearInterval(trickle);
    }
  });

  it('keeps an idle keep-alive connection for keepAliveTimeoutMs, longer than the request limits, and serves its next request', async () => {
    const port = await listening({ requestTimeoutMs: 600, headersTimeoutMs: 300, keepAliveTimeoutMs: 5_000 });
    const client = rawClient(port);
    await once(client.socket, 'connect');
    const request = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc';
    client.socket.write(request);
    // Idle for longer than both request limits, well within the keep-alive.
    await sleep(1_500);
    client.socket.write(request);
    await answered(client, 2);
    expect(client.received().match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(client.socket.destroyed).toBe(false);
    client.socket.destroy();
  });

  it('applies the defaults: 30 s for a request, 10 s for its headers, 65 s of keep-alive', () => {
    const server = createHttpServer(() => undefined);
    expect([server.requestTimeout, server.headersTimeout, server.keepAliveTimeout]).toEqual([30_000, 10_000, 65_000]);
    expect(DEFAULT_HTTP_TIMEOUTS).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 65_000,
    });
  });
});

describe('every HTTP server of the platform', () => {
  it('is made by createHttpServer: no service source calls node’s createServer or express’s app.listen', () => {
    const root = join(import.meta.dirname, '..', '..', '..', '..');
    const sources = ['libs', 'apps'].flatMap((top) =>
      readdirSync(join(root, top), { recursive: true, encoding: 'utf8' })
        .filter(
          (file) =>
            file.endsWith('.ts') &&
            !file.endsWith('.spec.ts') &&
            !file.includes('node_modules') &&
            // The test support library binds a port only to learn a free one: it serves nothing.
            !(top === 'libs' && file.startsWith('testing/')) &&
            /(^|\/)src\//.test(file),
        )
        .map((file) => join(root, top, file)),
    );
    expect(sources.length).toBeGreaterThan(100);
    const offenders = sources
      .filter((file) => !file.endsWith(join('http', 'src', 'http-server.ts')))
      .filter((file) =>
        /\bcreateServer\s*\(|\bapp\.listen\s*\(|express\(\)\.listen\s*\(/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});

describe('createHttpServer: draining', () => {
  it('keeps connections alive until the drain begins, then answers Connection: close and closes each after its answer', async () => {
    const drain = new DrainSignal();
    const port = await listening({ drain });
    const client = rawClient(port);
    await once(client.socket, 'connect');
    const request = 'GET /spin HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n';
    client.socket.write(request);
    await answered(client, 1);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*Connection: keep-alive/i);
    expect(client.socket.destroyed).toBe(false);

    drain.begin();
    const before = client.received().length;
    client.socket.write(request);
    const closedAt = await Promise.race([client.closed, sleep(3_000).then(() => undefined)]);
    const second = client.received().slice(before);
    expect(second).toMatch(/^HTTP\/1\.1 200 [\s\S]*Connection: close/i);
    // Closed by the server right after the answer, not by the keep-alive time-out (65 s).
    expect(closedAt).toBeDefined();
  });
});
