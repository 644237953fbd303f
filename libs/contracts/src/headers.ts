/**
 * Header names. Bus headers are lower-case (Kafka headers are case-sensitive); the ones the bus
 * itself reads (`correlation-id`, `reply-to`, `traceparent`, `tracestate`) are the same strings
 * as `BusHeaders` of `@reelstream/platform-ports`.
 */

export const Headers = {
  /** The `type` of the message body (`RegisterBonusCall`, `bet`, …), readable without parsing it. */
  messageType: 'message-type',
  correlationId: 'correlation-id',
  causationId: 'causation-id',
  replyTo: 'reply-to',
  operatorId: 'operator-id',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  contentType: 'content-type',
  /** On a delay topic: the topic the message goes back to when due. */
  retryTopic: 'x-retry-topic',
  /** On a delay topic: ISO-8601 time before which the message is not re-published. */
  notBefore: 'x-not-before',
  /** How many times the message was rescheduled through a delay topic (survives restarts with it). */
  retryCount: 'x-retry-count',
  /** A bonus webhook's attempts so far (sent, or refused by its operator's bulkhead): parked at `WEBHOOK_MAX_ATTEMPTS`. */
  webhookAttempts: 'x-webhook-attempts',
} as const;

/** HTTP headers of the API v1 and the callbacks. */
export const HttpHeaders = {
  authorization: 'Authorization',
  contentType: 'Content-Type',
  accept: 'Accept',
  /** Echoed (or generated) per request, and the correlationId of what it causes. */
  requestId: 'X-Request-Id',
  /** `true` on a resent registration answered with the stored issueId (D17). */
  idempotentReplayed: 'Idempotent-Replayed',
  /** Seconds to wait, on 429 and 503. */
  retryAfter: 'Retry-After',
  /** Lower-case hex HMAC-SHA256 of the raw callback body with the operator's secret (D8). */
  requestSignature: 'X-Request-Signature',
  /** Unix seconds of this attempt of a callback; signed too under the `timestamp.body` scheme. */
  requestTimestamp: 'X-Request-Timestamp',
  /** A bonus webhook's `eventId`, also in its body: the same on every delivery of one change. */
  webhookEventId: 'X-Webhook-Event-Id',
} as const;

export const JSON_CONTENT_TYPE = 'application/json';
