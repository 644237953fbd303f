/**
 * The operator POST over undici (HttpOperatorWallet, HttpWebhookSender) against a real HTTP server:
 * the operator's time limit covers the whole request, body included; a 3xx is a status, not
 * followed; a refused or dropped connection is a network outcome with node's error code; two calls
 * in a row share one kept-alive connection; close() ends what is still in flight; a reply longer
 * than REPLY_LIMIT_BYTES is not read, and its connection is closed; the caller's signal aborts a call.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getEventListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  parseOperatorsConfig,
  type BonusWebhook,
  type OperatorConfig,
  type WalletBetRequest,
} from '@reelstream/contracts';
import { eventually, sampleBetRequest } from '@reelstream/testing';
import { callbackFor } from '@reelstream/wallet-domain';
import { HttpOperatorWallet, HttpWebhookSender } from '../src/index.js';
import { REPLY_LIMIT_BYTES } from '../src/operator-post-client.js';

const OK_REPLY = '{"balance":100,"statusCode":"OK"}';
const PADDING = Buffer.alloc(1024, ' ');
const LIMIT_MS = 300;

/** What each path of the test server does; every request is recorded by path. */
const routes: Record<string, (res: ServerResponse) => void> = {
  '/ok': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(OK_REPLY),
  // Headers and half a body at once, the rest never: only a limit over the whole request ends it.
  '/stalls-in-body': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(OK_REPLY.length) });
    res.write(OK_REPLY.slice(0, 10));
  },
  // A byte of body every 50 ms, never idle for long: a limit on idle time (undici's bodyTimeout) never ends it.
  '/trickles-body': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const trickle = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(trickle));
  },
  '/never-answers': () => undefined,
  '/slow': (res) =>
    void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(OK_REPLY), 100),
  '/moved': (res) => res.writeHead(302, { location: '/ok' }).end('moved'),
  '/hangs-up': (res) => res.socket?.destroy(),
  // A valid answer padded with 1 MB of white space, sent chunked (no length declared) …
  '/padded': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(OK_REPLY.slice(0, -1));
    for (let sent = 0; sent < 1024; sent += 1) res.write(PADDING);
    res.end('}');
  },
  // … and with its length declared.
  '/padded-declared': (res) => {
    const body = `${OK_REPLY.slice(0, -1)}${PADDING.toString().repeat(1024)}}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  },
  // An error page: its first 120 characters in the reason, marked as cut.
  '/error-page': (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('e'.repeat(121)),
  '/error-120': (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('e'.repeat(120)),
  // An error page past the limit: not read, an HTTP status all the same.
  '/error-padded': (res) => res.writeHead(503, { 'content-type': 'text/plain' }).end(' '.repeat(REPLY_LIMIT_BYTES + 1)),
  // Exactly the limit, its length declared.
  '/declared-within': (res) => {
    const body = `${OK_REPLY.slice(0, -1)}${' '.repeat(REPLY_LIMIT_BYTES - OK_REPLY.length)}}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  },
  // Just under the limit: read and accepted.
  '/padded-within': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`${OK_REPLY.slice(0, -1)}${' '.repeat(REPLY_LIMIT_BYTES - OK_REPLY.length)}}`);
  },
};
/** The padded paths whose connection the server saw closed, in order. */
const closedAfter: string[] = [];
const requested: string[] = [];
let connections = 0;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      requested.push(req.url ?? '');
      const path = req.url ?? '';
      if (path.startsWith('/padded')) req.socket.once('close', () => closedAfter.push(path));
      routes[req.url ?? '']?.(res);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  requested.length = 0;
  closedAfter.length = 0;
  connections = 0;
});

const operatorAt = (path: string, url = base): OperatorConfig & { webhookUrl: string } =>
  parseOperatorsConfig([
    {
      id: 'posts',
      name: 'Posts',
      apiToken: 'posts-api-token-0123456789',
      callbackUrl: `${url}${path}`,
      webhookUrl: `${url}${path}`,
      signingSecret: 'posts-signing-secret-0123456789',
      currency: 'EUR',
    },
  ])[0] as OperatorConfig & { webhookUrl: string };

const bet = (transactionId: number): WalletBetRequest =>
  sampleBetRequest({ transactionId, operatorId: 'posts', playerId: 'posts_player', roundId: transactionId + 1 });

const webhook = { eventId: 'posts-webhook-1' } as BonusWebhook;

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** An origin nothing listens on: a server's port, closed again. */
async function refusingOrigin(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('HttpOperatorWallet', () => {
  let wallet: HttpOperatorWallet;
  beforeAll(() => void (wallet = new HttpOperatorWallet({ maxSockets: 4 })));
  afterAll(() => wallet.close());

  it.each(['/stalls-in-body', '/trickles-body', '/never-answers'])(
    '%s: the limit covers the whole request and ends in a timeout',
    async (path) => {
      const started = performance.now();
      const result = await wallet.call(operatorAt(path), callbackFor(bet(8_001)), LIMIT_MS);
      const tookMs = performance.now() - started;
      expect(result).toEqual({ kind: 'no_reply', cause: 'timeout', reason: `no reply within ${LIMIT_MS} ms` });
      expect(tookMs).toBeGreaterThanOrEqual(LIMIT_MS - 5);
      // Generous for a loaded machine; without a limit over the whole request the trickle never ends.
      expect(tookMs).toBeLessThan(LIMIT_MS + 1_000);
    },
  );

  it('answers a 302 as an HTTP status and does not follow it', async () => {
    const result = await wallet.call(operatorAt('/moved'), callbackFor(bet(8_002)), 2_000);
    expect(result).toEqual({ kind: 'no_reply', cause: 'http_status', reason: 'HTTP 302: "moved"' });
    expect(requested).toEqual(['/moved']);
  });

  it('reports a refused connection as a network outcome with its code', async () => {
    const result = await wallet.call(operatorAt('/ok', await refusingOrigin()), callbackFor(bet(8_003)), 2_000);
    expect(result).toMatchObject({ kind: 'no_reply', cause: 'network' });
    expect(result.kind === 'no_reply' && result.reason).toMatch(/^ECONNREFUSED: /);
  });

  it('reports a connection the operator drops before answering as ECONNRESET, as node does', async () => {
    const result = await wallet.call(operatorAt('/hangs-up'), callbackFor(bet(8_004)), 2_000);
    expect(result).toMatchObject({ kind: 'no_reply', cause: 'network' });
    expect(result.kind === 'no_reply' && result.reason).toMatch(/^ECONNRESET: /);
  });

  // undici frees a connection just after the body's end reaches the caller: a call made in that same tick opens
  // a second connection (then both are reused). The dispatcher's next call always comes later (an append between).
  it('sends calls in a row over one kept-alive connection', async () => {
    const fresh = new HttpOperatorWallet();
    try {
      for (const transactionId of [8_005, 8_006, 8_007]) {
        expect(await fresh.call(operatorAt('/ok'), callbackFor(bet(transactionId)), 2_000)).toEqual({
          kind: 'reply',
          statusCode: 'OK',
          balance: 100,
        });
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await fresh.close();
    }
    expect(requested).toEqual(['/ok', '/ok', '/ok']);
    expect(connections).toBe(1);
  });

  it('opens at most maxSockets connections to an operator: more calls at once wait for one to be free', async () => {
    const narrow = new HttpOperatorWallet({ maxSockets: 2 });
    try {
      const calls = [8_020, 8_021, 8_022, 8_023].map((transactionId) =>
        narrow.call(operatorAt('/slow'), callbackFor(bet(transactionId)), 2_000),
      );
      for (const result of await Promise.all(calls)) expect(result).toMatchObject({ kind: 'reply', statusCode: 'OK' });
    } finally {
      await narrow.close();
    }
    expect(requested).toEqual(['/slow', '/slow', '/slow', '/slow']);
    expect(connections).toBe(2);
  });

  it.each(['/padded', '/padded-declared'])(
    '%s: a valid answer padded past the limit is ERR_UNKNOWN (malformed), not read, and its connection is closed',
    async (path) => {
      const result = await wallet.call(operatorAt(path), callbackFor(bet(8_009)), 5_000);
      expect(result).toEqual({
        kind: 'no_reply',
        cause: 'malformed',
        reason: `HTTP 200: a reply over ${REPLY_LIMIT_BYTES} bytes, not read (connection closed)`,
      });
      await until(() => closedAfter.includes(path));
      expect(closedAfter).toEqual([path]);
    },
  );

  it('reads a reply of exactly the limit', async () => {
    expect(await wallet.call(operatorAt('/padded-within'), callbackFor(bet(8_010)), 5_000)).toEqual({
      kind: 'reply',
      statusCode: 'OK',
      balance: 100,
    });
    expect(closedAfter).toEqual([]);
  });

  it('close() ends a call still in flight at once, as a network outcome', async () => {
    const closing = new HttpOperatorWallet();
    const pending = closing.call(operatorAt('/never-answers'), callbackFor(bet(8_008)), 10_000);
    await eventually(() => expect(requested).toContain('/never-answers'), 5_000);
    const started = performance.now();
    await closing.close();
    const result = await pending;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ kind: 'no_reply', cause: 'network' });
  });

  it("the caller's signal aborts a call in flight: a time-out whose outcome is unknown, long before the limit", async () => {
    const abandon = new AbortController();
    const pending = wallet.call(
      operatorAt('/never-answers'),
      callbackFor(bet(8_009)),
      10_000,
      undefined,
      abandon.signal,
    );
    await until(() => requested.includes('/never-answers'));
    const started = performance.now();
    abandon.abort(new Error('deadline passed'));
    const result = await pending;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result).toEqual({
      kind: 'no_reply',
      cause: 'timeout',
      reason: 'abandoned before its reply (the handler deadline passed or its partition was revoked): outcome unknown',
    });
  });

  it('quotes the first 120 characters of an error page, marking a longer one as cut', async () => {
    expect(await wallet.call(operatorAt('/error-page'), callbackFor(bet(8_011)), 2_000)).toEqual({
      kind: 'no_reply',
      cause: 'http_status',
      reason: `HTTP 500: "${'e'.repeat(120)}…"`,
    });
    expect(await wallet.call(operatorAt('/error-120'), callbackFor(bet(8_012)), 2_000)).toEqual({
      kind: 'no_reply',
      cause: 'http_status',
      reason: `HTTP 500: "${'e'.repeat(120)}"`,
    });
  });

  it('answers an error page past the limit as its HTTP status, unread; a declared length of exactly the limit is read', async () => {
    expect(await wallet.call(operatorAt('/error-padded'), callbackFor(bet(8_013)), 5_000)).toEqual({
      kind: 'no_reply',
      cause: 'http_status',
      reason: `HTTP 503: a reply over ${REPLY_LIMIT_BYTES} bytes, not read (connection closed)`,
    });
    expect(await wallet.call(operatorAt('/declared-within'), callbackFor(bet(8_014)), 5_000)).toEqual({
      kind: 'reply',
      statusCode: 'OK',
      balance: 100,
    });
  });

  it("names a refused connection by its code and node's message, nothing more", async () => {
    const origin = await refusingOrigin();
    const result = await wallet.call(operatorAt('/ok', origin), callbackFor(bet(8_015)), 2_000);
    expect(result.kind === 'no_reply' && result.reason).toBe(
      `ECONNREFUSED: connect ECONNREFUSED ${new URL(origin).host}`,
    );
  });

  it('sends nothing for an operator without a signing secret', async () => {
    const unsigned = { ...operatorAt('/ok'), signingSecrets: [] };
    expect(await wallet.call(unsigned, callbackFor(bet(8_016)), 2_000)).toEqual({
      kind: 'no_reply',
      cause: 'network',
      reason: 'operator posts has no signing secret',
    });
    expect(requested).toEqual([]);
  });

  it("tells its observer each call's command, outcome and duration", async () => {
    const seen: [string, string, number][] = [];
    const observed = new HttpOperatorWallet({ observe: (command, outcome, ms) => seen.push([command, outcome, ms]) });
    try {
      const started = performance.now();
      await observed.call(operatorAt('/ok'), callbackFor(bet(8_017)), 2_000);
      await observed.call(operatorAt('/moved'), callbackFor(bet(8_018)), 2_000);
      const took = performance.now() - started;
      expect(seen.map(([command, outcome]) => [command, outcome])).toEqual([
        ['bet', 'OK'],
        ['bet', 'http_status'],
      ]);
      for (const [, , ms] of seen) {
        expect(ms).toBeGreaterThan(0);
        expect(ms).toBeLessThanOrEqual(took);
      }
    } finally {
      await observed.close();
    }
  });

  it("leaves nothing on the caller's signal once a call is over", async () => {
    const caller = new AbortController();
    await wallet.call(operatorAt('/ok'), callbackFor(bet(8_019)), 2_000, undefined, caller.signal);
    await wallet.call(operatorAt('/never-answers'), callbackFor(bet(8_020)), LIMIT_MS, undefined, caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('a signal already aborted sends nothing', async () => {
    const result = await wallet.call(
      operatorAt('/ok'),
      callbackFor(bet(8_010)),
      10_000,
      undefined,
      AbortSignal.abort(new Error('revoked')),
    );
    expect(result).toMatchObject({ kind: 'no_reply', cause: 'timeout' });
    expect(requested).toEqual([]);
  });
});

describe('HttpWebhookSender', () => {
  let sender: HttpWebhookSender;
  beforeAll(() => void (sender = new HttpWebhookSender()));
  afterAll(() => sender.close());

  it('delivers on a 2xx', async () => {
    expect(await sender.post(operatorAt('/ok'), webhook, 2_000)).toEqual({ delivered: true });
  });

  it('a body that stalls past the limit is not delivered: a timeout', async () => {
    expect(await sender.post(operatorAt('/stalls-in-body'), webhook, LIMIT_MS)).toEqual({
      delivered: false,
      reason: `timeout: no reply within ${LIMIT_MS} ms`,
    });
  });

  it('a 302 is not delivered and not followed', async () => {
    expect(await sender.post(operatorAt('/moved'), webhook, 2_000)).toEqual({ delivered: false, reason: 'HTTP 302' });
    expect(requested).toEqual(['/moved']);
  });

  it('a 2xx whose reply is over the limit is not delivered, and its connection is closed', async () => {
    expect(await sender.post(operatorAt('/padded'), webhook, 5_000)).toEqual({
      delivered: false,
      reason: `HTTP 200: a reply over ${REPLY_LIMIT_BYTES} bytes, not read (connection closed)`,
    });
    await until(() => closedAfter.includes('/padded'));
    expect(closedAfter).toEqual(['/padded']);
  });

  it('a refused connection is not delivered, with its code', async () => {
    const result = await sender.post(operatorAt('/ok', await refusingOrigin()), webhook, 2_000);
    expect(result).toEqual({ delivered: false, reason: expect.stringMatching(/^ECONNREFUSED: /) });
  });
});
