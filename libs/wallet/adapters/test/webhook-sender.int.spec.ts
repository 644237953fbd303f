/**
 * What the webhook sender puts on the wire (D8, as for callbacks): the exact JSON of the webhook,
 * X-Request-Timestamp in whole Unix seconds of the sender's clock, X-Webhook-Event-Id, and
 * X-Request-Signature with the operator's current secret over the body, or over
 * `<X-Request-Timestamp>.<body>` for an operator with `timestamp.body`. A real HTTP server records
 * what arrives; the signatures are checked with node:crypto here.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { bonusWebhook, parseOperatorsConfig, type OperatorConfig, type SignatureScheme } from '@reelstream/contracts';
import { HttpWebhookSender } from '../src/index.js';

const CURRENT = 'webhook-current-secret-0123456789';
const PREVIOUS = 'webhook-previous-secret-0123456789';
const NOW_MS = Date.parse('2026-05-01T10:00:00.900Z');
const NOW_SECONDS = '1777629600';

const webhook = bonusWebhook.parse({
  eventId: 'bw-5b0c7c0e-8f0e-4c43-9d1a-3f1c3b0d2a11',
  type: 'bonus.spin_settled',
  bonusId: 41,
  playerId: 'webhook_player',
  sequence: 2,
  occurredAt: '2026-05-01T09:59:58.000Z',
  status: 'active',
  currency: 'EUR',
  spinsUsed: 1,
  totalWin: 1.5,
  win: 1.5,
  roundId: 77,
});

const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
let server: Server;
let url: string;
let sender: HttpWebhookSender;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  sender = new HttpWebhookSender(() => NOW_MS);
});
afterAll(async () => {
  await sender.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => void (received.length = 0));

/** An operator in a secret rotation: CURRENT signs, PREVIOUS is still accepted by its wallet. */
const operatorWith = (signatureScheme: SignatureScheme): OperatorConfig & { webhookUrl: string } =>
  parseOperatorsConfig([
    {
      id: 'webhooks',
      name: 'Webhooks',
      apiToken: 'webhooks-api-token-0123456789',
      callbackUrl: url,
      webhookUrl: url,
      signingSecret: [CURRENT, PREVIOUS],
      currency: 'EUR',
      signatureScheme,
    },
  ])[0] as OperatorConfig & { webhookUrl: string };

const hmac = (secret: string, ...parts: (string | Buffer)[]) =>
  parts.reduce((mac, part) => mac.update(part), createHmac('sha256', secret)).digest('hex');

describe('HttpWebhookSender: what a webhook carries', () => {
  it.each(['body', 'timestamp.body'] as const)(
    '%s: the webhook JSON, its event id, the second of the sender clock and the signature of the scheme',
    async (scheme) => {
      expect(await sender.post(operatorWith(scheme), webhook, 2_000)).toEqual({ delivered: true });
      expect(received).toHaveLength(1);
      const [{ headers, body }] = received as [{ headers: IncomingHttpHeaders; body: Buffer }];
      expect(JSON.parse(body.toString('utf8'))).toEqual(webhook);
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-webhook-event-id']).toBe(webhook.eventId);
      expect(headers['x-request-timestamp']).toBe(NOW_SECONDS);
      const signed = scheme === 'body' ? [body] : [`${NOW_SECONDS}.`, body];
      expect(headers['x-request-signature']).toBe(hmac(CURRENT, ...signed));
      expect(headers['x-request-signature']).not.toBe(hmac(PREVIOUS, ...signed));
    },
  );

  it('timestamp.body: the signature over the body alone is not what is sent', async () => {
    await sender.post(operatorWith('timestamp.body'), webhook, 2_000);
    const [{ headers, body }] = received as [{ headers: IncomingHttpHeaders; body: Buffer }];
    expect(headers['x-request-signature']).not.toBe(hmac(CURRENT, body));
  });

  it('an operator with no signing secret gets nothing, and the reason says why', async () => {
    const unsigned = { ...operatorWith('body'), signingSecrets: [] };
    expect(await sender.post(unsigned, webhook, 2_000)).toEqual({
      delivered: false,
      reason: 'operator webhooks has no signing secret',
    });
    expect(received).toEqual([]);
  });

  it.each([
    [200, 'delivered', { delivered: true }],
    [299, 'delivered', { delivered: true }],
    [300, 'not delivered', { delivered: false, reason: 'HTTP 300' }],
    [500, 'not delivered', { delivered: false, reason: 'HTTP 500' }],
  ] as const)('an answer %i: %s', async (status, _, expected) => {
    const answering = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(status).end());
    });
    await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', () => resolve()));
    const at = `http://127.0.0.1:${(answering.address() as AddressInfo).port}/`;
    try {
      expect(await sender.post({ ...operatorWith('body'), webhookUrl: at }, webhook, 2_000)).toEqual(expected);
    } finally {
      await new Promise<void>((resolve) => answering.close(() => resolve()));
    }
  });

  it('no answer within the limit: not delivered, a timeout', async () => {
    const silent = createServer((req) => req.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const at = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    try {
      expect(await sender.post({ ...operatorWith('body'), webhookUrl: at }, webhook, 200)).toEqual({
        delivered: false,
        reason: 'timeout: no reply within 200 ms',
      });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
