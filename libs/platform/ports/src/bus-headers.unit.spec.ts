import { describe, expect, it } from '@jest/globals';
import { Headers } from '@reelstream/contracts';
import { BusHeaders } from './message-bus.js';

// Here rather than in contracts: this lib imports contracts (its errors are ReelstreamErrors), not the other way.
describe('bus headers: the same strings as @reelstream/contracts where they overlap', () => {
  it('matches Headers for correlation-id, reply-to, traceparent and tracestate', () => {
    expect(BusHeaders.correlationId).toBe(Headers.correlationId);
    expect(BusHeaders.replyTo).toBe(Headers.replyTo);
    expect(BusHeaders.traceparent).toBe(Headers.traceparent);
    expect(BusHeaders.tracestate).toBe(Headers.tracestate);
  });
});
