import { describe, expect, it } from '@jest/globals';
import { BusHeaders, traceHeadersOf } from './message-bus.js';

describe('traceHeadersOf', () => {
  it("carries an event's trace context on as W3C message headers", () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect(traceHeadersOf({ traceparent, tracestate: 'vendor=1', correlationId: 'c1', operatorId: 'op' })).toEqual({
      [BusHeaders.traceparent]: traceparent,
      [BusHeaders.tracestate]: 'vendor=1',
    });
  });

  it('adds nothing for an event stored without a trace (or without metadata)', () => {
    expect(traceHeadersOf({ correlationId: 'c1', traceparent: undefined })).toEqual({});
    expect(traceHeadersOf(undefined)).toEqual({});
  });
});
