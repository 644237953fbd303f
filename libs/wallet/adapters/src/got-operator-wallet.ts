/**
 * The OperatorWallet port over got 14: one POST per attempt, got's own retries off (the policy is
 * the dispatcher's), the operator's time limit as got's request time-out, HTTP errors as values.
 * The body is encoded once — ids in the operator's encoding (D7), keys in the spec's order — and
 * those exact bytes are both signed (D8) and sent. Each attempt carries its own
 * X-Request-Timestamp (the body's `timestamp` stays the transaction's, so a retry is recognised).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { TimeoutError, type Got } from 'got';
import {
  encodeCallback,
  HttpHeaders,
  JSON_CONTENT_TYPE,
  parseOperatorReplyText,
  type CallbackRequest,
  type OperatorConfig,
} from '@reelstream/contracts';
import type { OperatorWallet } from '@reelstream/wallet-application';
import { operatorPostClient } from './operator-post-client.js';
import { signCallbackBody, type OperatorCallResult } from '@reelstream/wallet-domain';

interface CallObserver {
  /** After every attempt: for metrics. `outcome` is the status code or the cause of no reply. */
  (command: CallbackRequest['command'], outcome: string, durationMs: number): void;
}

export interface GotOperatorWalletOptions {
  /** Open connections per operator host. Default 64. */
  maxSockets?: number;
  observe?: CallObserver;
  /** The clock of X-Request-Timestamp (Unix ms); default Date.now. */
  nowMs?: () => number;
}

const preview = (text: string) => JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);

export class GotOperatorWallet implements OperatorWallet {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;
  private readonly client: Got;

  constructor(private readonly options: GotOperatorWalletOptions = {}) {
    const maxSockets = options.maxSockets ?? 64;
    this.http = new HttpAgent({ keepAlive: true, maxSockets });
    this.https = new HttpsAgent({ keepAlive: true, maxSockets });
    this.client = operatorPostClient({ http: this.http, https: this.https });
  }

  async call(operator: OperatorConfig, body: CallbackRequest, timeoutMs: number): Promise<OperatorCallResult> {
    const bytes = Buffer.from(JSON.stringify(encodeCallback(body, operator.callbackIdEncoding)), 'utf8');
    const started = performance.now();
    const result = await this.send(operator, body, bytes, timeoutMs);
    this.options.observe?.(
      body.command,
      result.kind === 'reply' ? result.statusCode : result.cause,
      performance.now() - started,
    );
    return result;
  }

  private async send(
    operator: OperatorConfig,
    body: CallbackRequest,
    bytes: Buffer,
    timeoutMs: number,
  ): Promise<OperatorCallResult> {
    const secret = operator.signingSecrets[0];
    if (secret === undefined)
      return { kind: 'no_reply', cause: 'network', reason: `operator ${operator.id} has no signing secret` };
    const timestamp = Math.floor((this.options.nowMs ?? Date.now)() / 1_000);
    try {
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
        return {
          kind: 'no_reply',
          cause: 'http_status',
          reason: `HTTP ${response.statusCode}: ${preview(response.body)}`,
        };
      const reply = parseOperatorReplyText(response.body, body.command);
      if (!reply.valid) return { kind: 'no_reply', cause: 'malformed', reason: reply.reason };
      return { kind: 'reply', statusCode: reply.statusCode, balance: reply.balance };
    } catch (error) {
      if (error instanceof TimeoutError)
        return { kind: 'no_reply', cause: 'timeout', reason: `no reply within ${timeoutMs} ms` };
      const { code, message } = error as { code?: string; message?: string };
      return {
        kind: 'no_reply',
        cause: 'network',
        reason: `${code ?? 'ERROR'}: ${message ?? String(error)}`.slice(0, 500),
      };
    }
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
