/**
 * The kit's side of the wire: callbacks encoded and signed exactly as the dispatcher does (D7,
 * D8, X-Request-Timestamp on every request), one POST each, timed, the reply read with the
 * contracts' zod schema.
 */
import { createHmac } from 'node:crypto';
import got, { TimeoutError } from 'got';
import {
  encodeCallback,
  HttpHeaders,
  JSON_CONTENT_TYPE,
  parseOperatorReplyText,
  type CallbackIdEncoding,
  type CallbackRequest,
  type CallbackStatusCode,
  type SignatureScheme,
} from '@reelstream/contracts';

/**
 * D8, written out here so an operator reading the kit sees exactly what is signed: lowercase hex
 * HMAC-SHA256 of the raw body bytes or, under `timestamp.body`, of `<X-Request-Timestamp>.<body>`.
 */
function signBody(body: string, secret: string, scheme: SignatureScheme = 'body', timestamp?: number): string {
  const signed = scheme === 'timestamp.body' ? `${String(timestamp)}.${body}` : body;
  return createHmac('sha256', secret).update(signed, 'utf8').digest('hex');
}

export type CallResult =
  | { kind: 'reply'; statusCode: CallbackStatusCode; balance: number; ms: number }
  | { kind: 'invalid'; reason: string; ms: number }
  | { kind: 'no_answer'; reason: string; ms: number };

export interface CallRecord {
  command: CallbackRequest['command'];
  transactionId: number;
  ms: number;
}

export interface WalletClientOptions {
  url: string;
  secret: string;
  encoding: CallbackIdEncoding;
  /** What X-Request-Signature covers, as in the operator's configuration; default `body`. */
  signatureScheme?: SignatureScheme;
  /** The clock of X-Request-Timestamp (Unix ms); default Date.now. */
  nowMs?: () => number;
  /** How long to wait for any answer: longer than the time limits, so a slow answer is measured rather than cut off. */
  waitMs: number;
}

export class WalletClient {
  readonly calls: CallRecord[] = [];

  constructor(private readonly options: WalletClientOptions) {}

  /**
   * Sends `callback`; `signature` overrides the correct one (`null`: no header at all);
   * `timestamp` (Unix seconds) overrides the time of this request, e.g. to send a stale one.
   */
  async send(callback: CallbackRequest, signature?: string | null, timestamp?: number): Promise<CallResult> {
    const text = JSON.stringify(encodeCallback(callback, this.options.encoding));
    const sentAt = timestamp ?? Math.floor((this.options.nowMs ?? Date.now)() / 1_000);
    const headers: Record<string, string> = {
      [HttpHeaders.contentType]: JSON_CONTENT_TYPE,
      [HttpHeaders.accept]: JSON_CONTENT_TYPE,
      [HttpHeaders.requestTimestamp]: String(sentAt),
    };
    if (signature !== null)
      headers[HttpHeaders.requestSignature] =
        signature ?? signBody(text, this.options.secret, this.options.signatureScheme, sentAt);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await got.post(this.options.url, {
        body: text,
        headers,
        throwHttpErrors: false,
        retry: { limit: 0 },
        timeout: { request: this.options.waitMs },
        responseType: 'text',
        followRedirect: false,
      });
      const ms = elapsed();
      this.calls.push({ command: callback.command, transactionId: callback.transactionId, ms });
      if (response.statusCode !== 200)
        return { kind: 'invalid', reason: `HTTP ${response.statusCode} instead of 200`, ms };
      const reply = parseOperatorReplyText(response.body, callback.command);
      if (!reply.valid) return { kind: 'invalid', reason: reply.reason, ms };
      return { kind: 'reply', statusCode: reply.statusCode, balance: reply.balance, ms };
    } catch (error) {
      const ms = elapsed();
      this.calls.push({ command: callback.command, transactionId: callback.transactionId, ms });
      if (error instanceof TimeoutError)
        return { kind: 'no_answer', reason: `no answer within ${this.options.waitMs} ms`, ms };
      const { code, message } = error as { code?: string; message?: string };
      return { kind: 'no_answer', reason: `${code ?? 'ERROR'}: ${message ?? String(error)}`, ms };
    }
  }
}

export function describeResult(result: CallResult): string {
  return result.kind === 'reply' ? `${result.statusCode} (balance ${result.balance})` : result.reason;
}
