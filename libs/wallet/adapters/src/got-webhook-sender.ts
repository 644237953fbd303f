/**
 * The WebhookSender port over got 14 (issue 16): one POST per attempt to the operator's
 * `webhookUrl`, signed exactly as its callbacks are (D8: X-Request-Signature over the body bytes,
 * or over `<X-Request-Timestamp>.` and the body under `timestamp.body`), with the webhook's
 * eventId in X-Webhook-Event-Id. Any 2xx is delivered; anything else is a reason to try again.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Got } from 'got';
import { HttpHeaders, JSON_CONTENT_TYPE, type BonusWebhook, type OperatorConfig } from '@reelstream/contracts';
import type { WebhookSender } from '@reelstream/wallet-application';
import { operatorPostClient } from './operator-post-client.js';
import { signCallbackBody } from '@reelstream/wallet-domain';

export class GotWebhookSender implements WebhookSender {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 16 });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 16 });
  private readonly client: Got;

  constructor(private readonly nowMs: () => number = Date.now) {
    this.client = operatorPostClient({ http: this.http, https: this.https });
  }

  async post(
    operator: OperatorConfig & { webhookUrl: string },
    webhook: BonusWebhook,
    timeoutMs: number,
  ): Promise<{ delivered: true } | { delivered: false; reason: string }> {
    const secret = operator.signingSecrets[0];
    if (secret === undefined) return { delivered: false, reason: `operator ${operator.id} has no signing secret` };
    const bytes = Buffer.from(JSON.stringify(webhook), 'utf8');
    const timestamp = Math.floor(this.nowMs() / 1_000);
    try {
      const response = await this.client(operator.webhookUrl, {
        body: bytes,
        headers: {
          [HttpHeaders.contentType]: JSON_CONTENT_TYPE,
          [HttpHeaders.requestTimestamp]: String(timestamp),
          [HttpHeaders.requestSignature]: signCallbackBody(bytes, secret, operator.signatureScheme, timestamp),
          [HttpHeaders.webhookEventId]: webhook.eventId,
        },
        timeout: { request: timeoutMs },
      });
      if (response.statusCode >= 200 && response.statusCode < 300) return { delivered: true };
      return { delivered: false, reason: `HTTP ${response.statusCode}` };
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      return { delivered: false, reason: `${code ?? 'ERROR'}: ${message ?? String(error)}`.slice(0, 500) };
    }
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
