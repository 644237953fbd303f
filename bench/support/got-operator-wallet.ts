/**
 * The baseline of `npm run bench:dispatch`: the dispatcher's operator POST as it was before
 * undici, over got 14 — the same encoding, signing and headers as HttpOperatorWallet, got's retries
 * off, every status a value, no redirects, the body as text, keep-alive agents with 64 sockets and
 * the time limit as got's `timeout.request`. Only the bench uses it, to compare the two clients.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import got, { type Got } from 'got';
import {
  encodeCallback,
  HttpHeaders,
  JSON_CONTENT_TYPE,
  parseOperatorReplyText,
  type CallbackRequest,
  type OperatorConfig,
} from '@reelstream/contracts';
import { signCallbackBody, type OperatorCallResult } from '@reelstream/wallet-domain';

export class GotOperatorWallet {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 64 });
  private readonly client: Got = got.extend({
    method: 'POST',
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
    responseType: 'text',
    agent: { http: this.http, https: this.https },
  });

  async call(operator: OperatorConfig, body: CallbackRequest, timeoutMs: number): Promise<OperatorCallResult> {
    const bytes = Buffer.from(JSON.stringify(encodeCallback(body, operator.callbackIdEncoding)), 'utf8');
    const secret = operator.signingSecrets[0] as string;
    const timestamp = Math.floor(Date.now() / 1_000);
    const response = await this.client(operator.callbackUrl, {
      body: bytes,
      headers: {
        [HttpHeaders.contentType]: JSON_CONTENT_TYPE,
        [HttpHeaders.accept]: JSON_CONTENT_TYPE,
        [HttpHeaders.requestTimestamp]: String(timestamp),
        [HttpHeaders.requestSignature]: signCallbackBody(bytes, secret, operator.signatureScheme, timestamp),
      },
      timeout: { request: timeoutMs },
    });
    if (response.statusCode !== 200)
      return { kind: 'no_reply', cause: 'http_status', reason: `HTTP ${response.statusCode}` };
    const reply = parseOperatorReplyText(response.body, body.command);
    if (!reply.valid) return { kind: 'no_reply', cause: 'malformed', reason: reply.reason };
    return { kind: 'reply', statusCode: reply.statusCode, balance: reply.balance };
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
