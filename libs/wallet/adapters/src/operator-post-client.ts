/**
 * The HTTP client that POSTs to an operator (callbacks and webhooks), over undici 7: one keep-alive
 * `Agent` (a pool of `connections` sockets per origin, no pipelining), one attempt per call (the
 * dispatcher decides about retries), every status answered as a value, no redirects followed (a 3xx
 * is a status like any other), the body read to its end as text so the socket goes back to the
 * pool. http:// and https:// go through the same agent.
 *
 * A reply is read up to `maxReplyBytes` (REPLY_LIMIT_BYTES by default): the wallet's answer is
 * `{balance, statusCode}` and a webhook receiver's is not read at all, so a body declared or found to
 * be longer is an `oversized` outcome, and the request is aborted, which closes its connection (the
 * rest of the body is never read into memory).
 *
 * The time limit covers the whole request (connecting, sending, the headers and the body), as got's
 * `timeout.request` did: a timer aborts the request, and an abort is a `timeout`. undici's own
 * `headersTimeout`/`bodyTimeout` get the same value as a backstop; they run on a coarse clock that
 * fires late, never early, so the abort always comes first.
 *
 * A caller's `signal` (the bus handler's, aborted when its deadline passes or its partition is
 * revoked) aborts the request the same way: an `aborted` outcome, the connection closed, whatever
 * the operator did with the request unknown.
 *
 * Each POST is a CLIENT span with the `http.client.request.duration` histogram and sends the trace
 * context in its headers (`startHttpClientCall`), as node's HTTP instrumentation did for got.
 */
import { startHttpClientCall } from '@reelstream/platform-telemetry';
import { Agent, type Dispatcher } from 'undici';

/** The most of a reply's body read: 16 KiB, far above `{"balance":…,"statusCode":…}` and a short message. */
export const REPLY_LIMIT_BYTES = 16 * 1024;

export type PostOutcome =
  | { kind: 'response'; statusCode: number; body: string }
  /** The body was longer than the limit: not read, and its connection closed. */
  | { kind: 'oversized'; statusCode: number; limitBytes: number }
  | { kind: 'timeout' }
  /** The caller's signal aborted the request before its answer: whether the operator acted on it is unknown. */
  | { kind: 'aborted' }
  /** `reason`: `CODE: message` of the network error, at most 500 characters. */
  | { kind: 'error'; code: string; reason: string };

interface Target {
  url: URL;
  origin: string;
  /** Path and query of the URL, what the request line names. */
  path: string;
}

/** undici's own time-outs: only reached if the abort did not come first. */
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class OperatorPostClient {
  private readonly agent: Agent;

  constructor(
    connectionsPerOrigin: number,
    private readonly maxReplyBytes = REPLY_LIMIT_BYTES,
  ) {
    this.agent = new Agent({ connections: connectionsPerOrigin, pipelining: 1 });
  }

  async post(
    url: string,
    headers: Record<string, string>,
    body: Buffer,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<PostOutcome> {
    let target: Target;
    try {
      target = targetOf(url);
    } catch (error) {
      return networkError(error);
    }
    const call = startHttpClientCall('POST', target.url);
    const outcome = await this.send(target, { ...headers, ...call.traceHeaders }, body, timeoutMs, signal);
    call.end(
      outcome.kind === 'response'
        ? { statusCode: outcome.statusCode }
        : outcome.kind === 'oversized'
          ? { statusCode: outcome.statusCode }
          : { errorType: outcome.kind === 'error' ? outcome.code : outcome.kind },
    );
    return outcome;
  }

  /** Destroys the agent's sockets: calls still in flight end as network errors. */
  close(): Promise<void> {
    return this.agent.destroy();
  }

  private async send(
    { origin, path }: Target,
    headers: Record<string, string>,
    body: Buffer,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<PostOutcome> {
    if (signal?.aborted) return { kind: 'aborted' };
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    const abandon = () => abort.abort();
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent: a signal aborts once, and the listener goes in `finally`
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      const response = await this.agent.request({
        origin,
        path,
        method: 'POST',
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: abort.signal,
      });
      const text = await this.readLimited(response);
      if (text === undefined) {
        // The rest is never read: the request ends here, and undici closes its connection.
        response.body.destroy();
        return { kind: 'oversized', statusCode: response.statusCode, limitBytes: this.maxReplyBytes };
      }
      return { kind: 'response', statusCode: response.statusCode, body: text };
    } catch (error) {
      const { code } = error as { code?: unknown };
      if (signal?.aborted) return { kind: 'aborted' };
      if (abort.signal.aborted) return { kind: 'timeout' };
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: the call's own timer starts first with the same limit, and undici's coarser timers never end a request before it
      if (typeof code === 'string' && UNDICI_TIMEOUTS.has(code)) return { kind: 'timeout' };
      return networkError(error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abandon);
    }
  }

  /** The body as text, or undefined as soon as it is declared or found longer than the limit (the rest unread). */
  private async readLimited(response: Dispatcher.ResponseData): Promise<string | undefined> {
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxReplyBytes) return undefined;
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > this.maxReplyBytes) return undefined;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, length).toString('utf8');
  }
}

/** Where a URL points (parsed on every call: a microsecond beside the call itself). */
function targetOf(url: string): Target {
  const parsed = new URL(url);
  return { url: parsed, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}

/**
 * The error's code and `CODE: message`. undici reports a peer that closed the connection before the
 * whole reply as UND_ERR_SOCKET "other side closed", where node's HTTP client (and so got) said
 * ECONNRESET "socket hang up": the outcome keeps node's code, which the records and logs already use.
 */
function networkError(error: unknown): PostOutcome {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const name = code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : typeof code === 'string' ? code : 'ERROR';
  return { kind: 'error', code: name, reason: `${name}: ${String(message ?? error)}`.slice(0, 500) };
}
