/**
 * The bonus webhook receiver checks (operator guide 7.3): a correctly signed webhook is
 * accepted with a 2xx, the same eventId sent again is accepted too (delivery is at least once),
 * and a webhook whose signature is wrong is refused. Signed written out, as the wallet checks'
 * client does, so an operator reading it sees D8.
 */
import { createHmac, randomUUID } from 'node:crypto';
import {
  bonusWebhookEventId,
  HttpHeaders,
  JSON_CONTENT_TYPE,
  type BonusWebhook,
  type SignatureScheme,
} from '@reelstream/contracts';
import { DEFAULT_SIGNATURE_SCHEME, type ConformanceReport } from './run.js';

export interface WebhookConformanceOptions {
  url: string;
  secret: string;
  signatureScheme?: SignatureScheme;
  playerId?: string;
  currency?: string;
}

async function send(
  options: WebhookConformanceOptions,
  webhook: BonusWebhook,
  secret: string,
): Promise<{ status: number } | { error: string }> {
  const body = JSON.stringify(webhook);
  const timestamp = String(Math.floor(Date.now() / 1_000));
  const signed = (options.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME) === 'body' ? body : `${timestamp}.${body}`;
  try {
    const response = await fetch(options.url, {
      method: 'POST',
      headers: {
        [HttpHeaders.contentType]: JSON_CONTENT_TYPE,
        [HttpHeaders.requestTimestamp]: timestamp,
        [HttpHeaders.requestSignature]: createHmac('sha256', secret).update(signed, 'utf8').digest('hex'),
        [HttpHeaders.webhookEventId]: webhook.eventId,
      },
      body,
      signal: AbortSignal.timeout(5_000),
    });
    await response.arrayBuffer();
    return { status: response.status };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const accepted = (result: { status: number } | { error: string }) => 'status' in result && result.status < 300;
const describe = (result: { status: number } | { error: string }) =>
  'status' in result ? `HTTP ${result.status}` : `no answer: ${result.error}`;

export async function runWebhookConformance(options: WebhookConformanceOptions): Promise<ConformanceReport> {
  const playerId = options.playerId ?? 'conformance_player';
  const currency = options.currency ?? 'EUR';
  const webhook: BonusWebhook = {
    eventId: bonusWebhookEventId(randomUUID()),
    type: 'bonus.registered',
    bonusId: Date.now(),
    playerId,
    sequence: 0,
    occurredAt: new Date().toISOString(),
    status: 'active',
    currency,
    spinsUsed: 0,
    totalWin: 0,
  };
  const first = await send(options, webhook, options.secret);
  const again = await send(options, webhook, options.secret);
  const forged = await send(
    options,
    { ...webhook, eventId: bonusWebhookEventId(randomUUID()) },
    `${options.secret}-not-it`,
  );
  const results = [
    {
      name: 'webhook: a signed bonus.registered is accepted (2xx)',
      pass: accepted(first),
      reason: describe(first),
    },
    {
      name: 'webhook: the same eventId again is accepted (2xx; apply it once)',
      pass: accepted(again),
      reason: describe(again),
    },
    {
      name: 'webhook: a wrong X-Request-Signature is refused (not 2xx)',
      pass: !accepted(forged) && 'status' in forged,
      reason: describe(forged),
    },
  ];
  return {
    url: options.url,
    playerId,
    currency,
    encoding: 'string',
    signatureScheme: options.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME,
    results,
    passed: results.every((result) => result.pass),
    title: `bonus webhook receiver conformance: ${options.url} (signature over ${options.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME})`,
  };
}
