/**
 * The CLIENT span and the `http.client.request.duration` histogram of an outgoing request made with
 * a client the HTTP instrumentation does not patch (undici: the dispatcher's operator POSTs), named
 * and attributed as that instrumentation does for node's client (the stable HTTP conventions), and
 * the span's trace context in the request's headers through the global propagator (OTEL_PROPAGATORS,
 * as for every HTTP hop), so the operator's server span continues the trace.
 * Without a registered SDK the span records nothing, and the headers carry only a trace passed through
 * (one that came in with the request being served), as every other hop passes it on.
 */
import { SpanKind, SpanStatusCode, ValueType, context, metrics, propagation, trace } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
  METRIC_HTTP_CLIENT_REQUEST_DURATION,
} from '@opentelemetry/semantic-conventions';
import { redactUrlSecrets } from './url-secrets.js';

const SCOPE = '@reelstream/platform-telemetry/http-client';
/** The buckets the HTTP instrumentation advises for this histogram. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** How a request ended: the response's status, or why there was none (`timeout`, an error code). */
type HttpClientOutcome = { statusCode: number } | { errorType: string };

export interface HttpClientCall {
  /** Trace headers to send with the request (none when there is no trace). */
  readonly traceHeaders: Record<string, string>;
  end(outcome: HttpClientOutcome): void;
}

let duration: ReturnType<ReturnType<typeof metrics.getMeter>['createHistogram']> | undefined;
let durationProvider: unknown;

/** The histogram of the current global meter provider (a test or a later SDK start may replace it). */
function durationHistogram() {
  const provider = metrics.getMeterProvider();
  if (duration === undefined || durationProvider !== provider) {
    duration = provider.getMeter(SCOPE).createHistogram(METRIC_HTTP_CLIENT_REQUEST_DURATION, {
      description: 'Duration of HTTP client requests.',
      unit: 's',
      valueType: ValueType.DOUBLE,
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    durationProvider = provider;
  }
  return duration;
}

/** Starts the span of a request to `url` (in the active context) and its clock; `end` once it is answered or failed. */
export function startHttpClientCall(method: string, url: URL): HttpClientCall {
  const started = performance.now();
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const parent = context.active();
  const span = trace.getTracer(SCOPE).startSpan(
    method,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_SERVER_ADDRESS]: url.hostname,
        [ATTR_SERVER_PORT]: port,
        [ATTR_URL_FULL]: redactUrlSecrets(url.href),
      },
    },
    parent,
  );
  const traceHeaders: Record<string, string> = {};
  propagation.inject(trace.setSpan(parent, span), traceHeaders);
  return {
    traceHeaders,
    end(outcome) {
      const attributes: Record<string, string | number> = {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_SERVER_ADDRESS]: url.hostname,
        [ATTR_SERVER_PORT]: port,
      };
      if ('statusCode' in outcome) {
        attributes[ATTR_HTTP_RESPONSE_STATUS_CODE] = outcome.statusCode;
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.statusCode);
        if (outcome.statusCode >= 400) {
          attributes[ATTR_ERROR_TYPE] = String(outcome.statusCode);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
      } else {
        attributes[ATTR_ERROR_TYPE] = outcome.errorType;
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorType });
      }
      if (attributes[ATTR_ERROR_TYPE] !== undefined) span.setAttribute(ATTR_ERROR_TYPE, attributes[ATTR_ERROR_TYPE]);
      span.end();
      durationHistogram().record((performance.now() - started) / 1_000, attributes);
    },
  };
}
