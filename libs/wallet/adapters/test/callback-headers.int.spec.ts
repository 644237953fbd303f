/**
 * What the wallet client puts on the wire for each attempt: X-Request-Timestamp is
 * the Unix second of THIS attempt (the body's `timestamp` stays the transaction's), and the
 * signature covers the body, or `<timestamp>.<body>` for an operator with `timestamp.body`; a
 * bonus webhook is signed the same way, with the current secret during a rotation.
 * A real HTTP server records what arrives; the signatures are checked with node:crypto here.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  parseOperatorsConfig,
  type BonusWebhook,
  type OperatorConfig,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { callbackFor } from '@reelstream/wallet-domain';
import { HttpOperatorWallet, HttpWebhookSender } from '../src/index.js';

const win = (playerId: string): WalletWinRequest => ({
  command: 'win',
  transactionId: 7_001,
  operatorId: 'rig',
  playerId,
  roundId: 7_002,
  providerId: 1,
  gameId: 10,
  currency: 'EUR',
  bonusId: 0,
  requestedAt: new Date().toISOString(),
  amountMinor: 500,
  isRoundFinished: true,
});

const SECRET = 'headers-test-secret-0123456789';
const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"balance":100,"statusCode":"OK"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const PREVIOUS_SECRET = 'headers-test-previous-secret-0123';
const operatorWith = (
  signatureScheme: 'body' | 'timestamp.body',
  signingSecret: string | string[] = SECRET,
): OperatorConfig & { webhookUrl: string } =>
  parseOperatorsConfig([
    {
      id: 'headers',
      name: 'Headers',
      apiToken: 'headers-api-token-0123456789',
      callbackUrl: url,
      webhookUrl: url,
      signingSecret,
      currency: 'EUR',
      signatureScheme,
    },
  ])[0] as OperatorConfig & { webhookUrl: string };
const hmacWith = (secret: string, ...parts: (string | Buffer)[]) =>
  parts.reduce((mac, part) => mac.update(part), createHmac('sha256', secret)).digest('hex');
const hmac = (...parts: (string | Buffer)[]) => hmacWith(SECRET, ...parts);

describe('X-Request-Timestamp and the signature of each attempt', () => {
  it.each(['body', 'timestamp.body'] as const)(
    '%s: two attempts of one transaction carry the same body and each its own timestamp',
    async (scheme) => {
      let nowMs = Date.parse('2026-05-01T10:00:00.400Z');
      const wallet = new HttpOperatorWallet({ nowMs: () => nowMs });
      const callback = callbackFor(win('headers_player'));
      received.length = 0;
      try {
        expect(await wallet.call(operatorWith(scheme), callback, 3_000)).toEqual({
          kind: 'reply',
          statusCode: 'OK',
          balance: 100,
        });
        nowMs += 2_700;
        await wallet.call(operatorWith(scheme), callback, 3_000);
      } finally {
        await wallet.close();
      }
      expect(received.map(({ headers }) => headers['x-request-timestamp'])).toEqual(['1777629600', '1777629603']);
      const [first, second] = received;
      expect(second?.body.equals(first?.body as Buffer)).toBe(true);
      for (const { headers, body } of received) {
        const timestamp = headers['x-request-timestamp'] as string;
        expect(headers['x-request-signature']).toBe(scheme === 'body' ? hmac(body) : hmac(`${timestamp}.`, body));
      }
    },
  );
});

describe('the signature of a bonus webhook', () => {
  const webhook = { eventId: 'headers-webhook-1', type: 'bonus.test' } as unknown as BonusWebhook;

  it.each(['body', 'timestamp.body'] as const)(
    '%s: signed as callbacks are, with the current secret while the previous one is still accepted',
    async (scheme) => {
      const sender = new HttpWebhookSender(() => Date.parse('2026-05-01T10:00:05.900Z'));
      received.length = 0;
      try {
        expect(await sender.post(operatorWith(scheme), webhook, 3_000)).toEqual({ delivered: true });
        expect(await sender.post(operatorWith(scheme, [SECRET, PREVIOUS_SECRET]), webhook, 3_000)).toEqual({
          delivered: true,
        });
      } finally {
        await sender.close();
      }
      expect(received).toHaveLength(2);
      for (const { headers, body } of received) {
        expect(headers['x-request-timestamp']).toBe('1777629605');
        expect(headers['x-webhook-event-id']).toBe('headers-webhook-1');
        const signed = scheme === 'body' ? [body] : ['1777629605.', body];
        expect(headers['x-request-signature']).toBe(hmacWith(SECRET, ...signed));
        expect(headers['x-request-signature']).not.toBe(hmacWith(PREVIOUS_SECRET, ...signed));
        expect(headers['x-request-signature']).not.toBe(
          hmacWith(SECRET, ...(scheme === 'body' ? ['1777629605.', body] : [body])),
        );
      }
    },
  );
});
