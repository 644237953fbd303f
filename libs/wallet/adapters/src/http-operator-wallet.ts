/**
 * The OperatorWallet port over HTTP (undici, through OperatorPostClient): one POST per attempt, no
 * retries of its own (the policy is the dispatcher's), the operator's time limit over the whole
 * request, HTTP errors as values. The body is encoded once — ids in the operator's encoding (D7),
 * keys in the spec's order — and those exact bytes are both signed (D8) and sent. Each attempt
 * carries its own X-Request-Timestamp (the body's `timestamp` stays the transaction's, so a retry
 * is recognised). A reply over REPLY_LIMIT_BYTES is not read: a `malformed` no-reply (ERR_UNKNOWN).
 */
import {
  encodeCallback,
  HttpHeaders,
  JSON_CONTENT_TYPE,
  parseOperatorReplyText,
  type CallbackRequest,
  type OperatorConfig,
} from '@reelstream/contracts';
import type { OperatorWallet } from '@reelstream/wallet-application';
import { OperatorPostClient } from './operator-post-client.js';
import { signCallbackBody, type OperatorCallResult } from '@reelstream/wallet-domain';

interface CallObserver {
  /** After every attempt: for metrics. `outcome` is the status code or the cause of no reply. */
  (command: CallbackRequest['command'], outcome: string, durationMs: number): void;
}

export interface HttpOperatorWalletOptions {
  /** Open connections per operator origin. Default 64. */
  maxSockets?: number;
  observe?: CallObserver;
  /** The clock of X-Request-Timestamp (Unix ms); default Date.now. */
  nowMs?: () => number;
}

const preview = (text: string) => JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);

export class HttpOperatorWallet implements OperatorWallet {
  private readonly client: OperatorPostClient;

  constructor(private readonly options: HttpOperatorWalletOptions = {}) {
    this.client = new OperatorPostClient(options.maxSockets ?? 64);
  }

  /** `signal` aborts the request (see `OperatorWallet.call`): a `timeout` no-reply, its outcome unknown. */
  async call(
    operator: OperatorConfig,
    body: CallbackRequest,
    timeoutMs: number,
    _sendWithinMs?: number,
    signal?: AbortSignal,
  ): Promise<OperatorCallResult> {
    const bytes = Buffer.from(JSON.stringify(encodeCallback(body, operator.callbackIdEncoding)), 'utf8');
    const started = performance.now();
    const result = await this.send(operator, body, bytes, timeoutMs, signal);
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
    signal: AbortSignal | undefined,
  ): Promise<OperatorCallResult> {
    const secret = operator.signingSecrets[0];
    if (secret === undefined)
      return { kind: 'no_reply', cause: 'network', reason: `operator ${operator.id} has no signing secret` };
    const timestamp = Math.floor((this.options.nowMs ?? Date.now)() / 1_000);
    const outcome = await this.client.post(
      operator.callbackUrl,
      {
        [HttpHeaders.contentType]: JSON_CONTENT_TYPE,
        [HttpHeaders.accept]: JSON_CONTENT_TYPE,
        [HttpHeaders.requestTimestamp]: String(timestamp),
        [HttpHeaders.requestSignature]: signCallbackBody(bytes, secret, operator.signatureScheme, timestamp),
      },
      bytes,
      timeoutMs,
      signal,
    );
    if (outcome.kind === 'aborted')
      return {
        kind: 'no_reply',
        cause: 'timeout',
        reason:
          'abandoned before its reply (the handler deadline passed or its partition was revoked): outcome unknown',
      };
    if (outcome.kind === 'timeout')
      return { kind: 'no_reply', cause: 'timeout', reason: `no reply within ${timeoutMs} ms` };
    if (outcome.kind === 'error') return { kind: 'no_reply', cause: 'network', reason: outcome.reason };
    if (outcome.kind === 'oversized') {
      // Not read, so not an answer: ERR_UNKNOWN (malformed) on a 200, the status otherwise.
      const reason = `HTTP ${outcome.statusCode}: a reply over ${outcome.limitBytes} bytes, not read (connection closed)`;
      return { kind: 'no_reply', cause: outcome.statusCode === 200 ? 'malformed' : 'http_status', reason };
    }
    if (outcome.statusCode !== 200)
      return { kind: 'no_reply', cause: 'http_status', reason: `HTTP ${outcome.statusCode}: ${preview(outcome.body)}` };
    const reply = parseOperatorReplyText(outcome.body, body.command);
    if (!reply.valid) return { kind: 'no_reply', cause: 'malformed', reason: reply.reason };
    return { kind: 'reply', statusCode: reply.statusCode, balance: reply.balance };
  }

  /** Closes the connections (calls still in flight end as network errors). */
  close(): Promise<void> {
    return this.client.close();
  }
}
