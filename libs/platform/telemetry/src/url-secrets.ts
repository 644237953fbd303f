/**
 * Secrets that travel in URLs must not reach a span. The launch host's session token is the
 * player's credential (docs/architecture.md flow 2, decisions.md D23: `/launch?token=…`, `/api/sessions/{token}`), and
 * the HTTP instrumentation records URLs in span attributes (`url.path`, `url.query`, `url.full`,
 * or `http.target`/`http.url` under the older conventions), which exporters ship to third parties.
 */
import type { Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** What a secret is replaced with (the word the HTTP instrumentation uses for its own redactions). */
const REDACTED = 'REDACTED';

/** Query parameters whose value is a credential. */
const SECRET_QUERY_PARAMETER = /([?&;]|^)(token)=[^&#\s]*/gi;
/**
 * Path segments that are credentials: the one after `/sessions/`, unless it is a route's parameter
 * (`:token`, in a span named by route): a token is base64url and never starts with a colon.
 */
const SECRET_PATH_SEGMENT = /(\/sessions\/)(?!:)[^/?#\s]+/g;

/** `text` (a URL, a path, a query string, a span name) with every secret it holds replaced by REDACTED. */
export function redactUrlSecrets(text: string): string {
  return text.replace(SECRET_QUERY_PARAMETER, `$1$2=${REDACTED}`).replace(SECRET_PATH_SEGMENT, `$1${REDACTED}`);
}

/**
 * Rewrites the string attributes and the name of a span that hold a URL secret. For the HTTP
 * instrumentation's hooks, which run while the span is still open: once when it starts (with the
 * URL attributes) and once before it ends (after the response attributes). The span the SDK makes
 * can be read back as a ReadableSpan; a span that records nothing has nothing to rewrite.
 */
export function redactSpanUrlSecrets(span: Span): void {
  const { attributes, name } = span as Partial<Pick<ReadableSpan, 'attributes' | 'name'>>;
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (typeof value !== 'string') continue;
    const redacted = redactUrlSecrets(value);
    if (redacted !== value) span.setAttribute(key, redacted);
  }
  if (typeof name === 'string') {
    const redacted = redactUrlSecrets(name);
    if (redacted !== name) span.updateName(redacted);
  }
}
