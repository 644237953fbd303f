import { describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeGracefully, reachableUrl } from '../src/index.js';

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: reachableUrl('127.0.0.1', (server.address() as AddressInfo).port) };
}

/** One GET on a keep-alive connection; resolves with the body once the response has ended. */
function getBody(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { connection: 'keep-alive' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('closeGracefully', () => {
  it('lets a request in flight finish, then closes', async () => {
    let arrived!: (answer: () => void) => void;
    const inFlight = new Promise<() => void>((resolve) => (arrived = resolve));
    const { server, url } = await listen((_req, res) => arrived(() => res.end('finished')));
    const body = getBody(url);
    const answer = await inFlight;
    const closing = closeGracefully(server, 5_000);
    answer();
    expect(await body).toBe('finished');
    await closing;
    expect(server.listening).toBe(false);
  });

  it('does not wait for idle keep-alive connections', async () => {
    const { server, url } = await listen((_req, res) => res.end('ok'));
    expect(await getBody(url)).toBe('ok');
    const started = performance.now();
    await closeGracefully(server, 10_000);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('cuts a request that outlasts the drain time', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const { server, url } = await listen(() => arrived());
    const body = getBody(url).catch((error: unknown) => error);
    await inFlight;
    await closeGracefully(server, 100);
    expect(await body).toMatchObject({ code: 'ECONNRESET' });
  });
});

describe('reachableUrl', () => {
  it.each([
    [undefined, 'http://127.0.0.1:8080'],
    ['0.0.0.0', 'http://127.0.0.1:8080'],
    ['::', 'http://127.0.0.1:8080'],
    ['::1', 'http://[::1]:8080'],
    ['10.0.0.5', 'http://10.0.0.5:8080'],
  ])('listening on %s: %s', (host, url) => expect(reachableUrl(host, 8080)).toBe(url));
});
