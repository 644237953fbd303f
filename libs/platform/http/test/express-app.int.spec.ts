/** The Express defaults the public APIs start from: what it answers with, and whom it takes for the client. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { withPlatformDefaults } from '../src/index.js';

let server: Server | undefined;
afterEach(() => void server?.close());

async function echo(trustProxy: number | string[] | undefined): Promise<string> {
  const app = withPlatformDefaults(express(), trustProxy);
  app.get('/echo', (req, res) => void res.json({ query: req.query, ip: req.ip }));
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
}

describe('withPlatformDefaults', () => {
  it('answers without X-Powered-By or an ETag, and reads a bracketed query as a plain string', async () => {
    const response = await fetch(`${await echo(undefined)}?a[b]=1`);
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('etag')).toBeNull();
    expect(await response.json()).toMatchObject({ query: { 'a[b]': '1' } });
  });

  it('believes X-Forwarded-For only when trust proxy is configured', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.7' };
    const untrusted = await fetch(await echo(undefined), { headers });
    expect(await untrusted.json()).toMatchObject({ ip: '127.0.0.1' });
    server?.close();
    const trusted = await fetch(await echo(1), { headers });
    expect(await trusted.json()).toMatchObject({ ip: '203.0.113.7' });
  });
});
