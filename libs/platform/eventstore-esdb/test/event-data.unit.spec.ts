import { describe, expect, it } from '@jest/globals';
import { toEventData, subscriptionFilterFor } from '../src/esdb-event-store.js';
import { USER_STREAMS_REGEX } from '../src/stream-names.js';

describe('events sent to the server', () => {
  it('keeps a caller-given event id, so a retried append is idempotent', () => {
    const data = toEventData({
      eventId: '3d6f4a2b-1c9e-4f7a-8b2d-0e5c6a7b8c9d',
      type: 'RoundStarted',
      data: { bet: 100 },
      metadata: { correlationId: 'c' },
    });
    expect(data).toMatchObject({
      id: '3d6f4a2b-1c9e-4f7a-8b2d-0e5c6a7b8c9d',
      contentType: 'application/json',
      type: 'RoundStarted',
      data: { bet: 100 },
      metadata: { correlationId: 'c' },
    });
  });

  it('generates a fresh UUID when the caller gives none, and sends {} as metadata', () => {
    const first = toEventData({ type: 'RoundStarted', data: {} });
    const second = toEventData({ type: 'RoundStarted', data: {} });
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.id).not.toBe(second.id);
    expect(first.metadata).toEqual({});
  });

  it('refuses an event id that is not a UUID and an event without data', () => {
    expect(() => toEventData({ eventId: 'round-1-started', type: 'RoundStarted', data: {} })).toThrow();
    expect(() => toEventData({ type: 'RoundStarted', data: undefined })).toThrow(/no data/);
  });

  it('filters subscriptions on the server by prefixes, or to user streams without checkpoints', () => {
    expect(subscriptionFilterFor({ streamPrefixes: ['round-', 'walletTx-'] })).toMatchObject({
      filterOn: 'streamName',
      prefixes: ['round-', 'walletTx-'],
    });
    expect(subscriptionFilterFor(undefined)).toMatchObject({ filterOn: 'streamName', regex: USER_STREAMS_REGEX });
    expect(subscriptionFilterFor({ streamPrefixes: [] })).toMatchObject({ regex: USER_STREAMS_REGEX });
    const userStreams = new RegExp(USER_STREAMS_REGEX);
    expect(['round-1', 'playerBonus-op-p'].every((s) => userStreams.test(s))).toBe(true);
    expect(['$stats-1', '$$round-1', 'checkpoint-relay', 'lease-relay'].some((s) => userStreams.test(s))).toBe(false);
  });
});
