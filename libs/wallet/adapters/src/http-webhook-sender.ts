/**
 * The WebhookSender port over HTTP (undici, through OperatorPostClient): one POST per
 * attempt to the operator's `webhookUrl`, signed exactly as its callbacks are (D8:
 * X-Request-Signature over the body bytes, or over `<X-Request-Timestamp>.` and the body under
 * `timestamp.body`), with the webhook's eventId in X-Webhook-Event-Id. Any 2xx with a reply of at
 * most REPLY_LIMIT_BYTES is delivered; anything else, a longer reply included, is a reason to try again.
 */
import { HttpHeaders, JSON_CONTENT_TYPE, type BonusWebhook, type OperatorConfig } from '@reelstream/contracts';
import type { WebhookSender } from '@reelstream/wallet-application';
import { OperatorPostClient } from './operator-post-client.js';
import { signCallbackBody } from '@reelstream/wallet-domain';

export class HttpWebhookSender implements WebhookSender {
  private readonly client = new OperatorPostClient(16);

  constructor(private readonly nowMs: () => number = Date.now) {}

  async post(
    operator: OperatorConfig & { webhookUrl: string },
    webhook: BonusWebhook,
    timeoutMs: number,
  ): Promise<{ delivered: true } | { delivered: false; reason: string }> {
    const secret = operator.signingSecrets[0];
    if (secret === undefined) return { delivered: false, reason: `operator ${operator.id} has no signing secret` };
    const bytes = Buffer.from(JSON.stringify(webhook), 'utf8');
    const timestamp = Math.floor(this.nowMs() / 1_000);
    const outcome = await this.client.post(
      operator.webhookUrl,
      {
        [HttpHeaders.contentType]: JSON_CONTENT_TYPE,
        [HttpHeaders.requestTimestamp]: String(timestamp),
        [HttpHeaders.requestSignature]: signCallbackBody(bytes, secret, operator.signatureScheme, timestamp),
        [HttpHeaders.webhookEventId]: webhook.eventId,
      },
      bytes,
      timeoutMs,
    );
    if (outcome.kind === 'timeout' || outcome.kind === 'aborted')
      return { delivered: false, reason: `timeout: no reply within ${timeoutMs} ms` };
    if (outcome.kind === 'error') return { delivered: false, reason: outcome.reason };
    if (outcome.kind === 'oversized')
      return {
        delivered: false,
        reason: `HTTP ${outcome.statusCode}: a reply over ${outcome.limitBytes} bytes, not read (connection closed)`,
      };
    // Stryker disable next-line ConditionalExpression: equivalent: undici resolves only on a final status (200 or more); a 1xx is no outcome
    if (outcome.statusCode >= 200 && outcome.statusCode < 300) return { delivered: true };
    return { delivered: false, reason: `HTTP ${outcome.statusCode}` };
  }

  /** Closes the connections (posts still in flight end as network errors). */
  close(): Promise<void> {
    return this.client.close();
  }
}
