import { describe, expect, it } from '@jest/globals';
import {
  BusHeaders,
  defaultRetryDelayMs,
  reply,
  type Message,
  type MessageBus,
  type OutgoingMessage,
} from './message-bus.js';

function recordingBus() {
  const published: { topic: string; messages: OutgoingMessage | readonly OutgoingMessage[] }[] = [];
  const bus: MessageBus = {
    publish: async (topic, messages) => {
      published.push({ topic, messages });
    },
    subscribe: () => Promise.reject(new Error('not used here')),
    request: () => Promise.reject(new Error('not used here')),
    close: async () => undefined,
  };
  return { bus, published };
}

const request = (headers: Record<string, string>): Message => ({
  topic: 'bonus.commands',
  partition: 0,
  offset: '7',
  key: 'p1',
  value: {},
  headers,
  timestamp: '2026-01-01T00:00:00.000Z',
});

describe('reply', () => {
  it('publishes to the reply-to topic keyed and headed by the correlation id', async () => {
    const { bus, published } = recordingBus();
    await reply(bus, request({ [BusHeaders.replyTo]: 'bonus.replies', [BusHeaders.correlationId]: 'c-1' }), {
      ok: true,
    });
    expect(published).toEqual([
      { topic: 'bonus.replies', messages: { key: 'c-1', value: { ok: true }, headers: { 'correlation-id': 'c-1' } } },
    ]);
  });

  it('refuses a message that is not a request', async () => {
    const { bus } = recordingBus();
    await expect(reply(bus, request({}), {})).rejects.toThrow(/no reply-to or correlation-id/);
  });
});

describe('defaultRetryDelayMs', () => {
  it('doubles from 100 ms and stops at 5 s', () => {
    expect([1, 2, 3, 4, 10].map(defaultRetryDelayMs)).toEqual([100, 200, 400, 800, 5_000]);
  });
});
