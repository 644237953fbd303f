import { describe, expect, it } from '@jest/globals';
import {
  BusHeaders,
  defaultRetryDelayMs,
  namedPartitionProblem,
  reply,
  replyNumberOf,
  replyPartitionOf,
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

  it("publishes to the partition the request's reply-partition header names", async () => {
    const { bus, published } = recordingBus();
    const asked = { [BusHeaders.replyTo]: 'wallet.replies', [BusHeaders.correlationId]: 'c-2' };
    await reply(bus, request({ ...asked, [BusHeaders.replyPartition]: '17' }), { ok: true });
    await reply(bus, request({ ...asked, [BusHeaders.replyPartition]: '0' }), { ok: true });
    expect(published.map(({ messages }) => messages)).toEqual([
      { key: 'c-2', value: { ok: true }, headers: { 'correlation-id': 'c-2' }, partition: 17 },
      { key: 'c-2', value: { ok: true }, headers: { 'correlation-id': 'c-2' }, partition: 0 },
    ]);
  });

  it("answers on the key's partition when the reply-partition header names no partition", async () => {
    const { bus, published } = recordingBus();
    const asked = { [BusHeaders.replyTo]: 'wallet.replies', [BusHeaders.correlationId]: 'c-3' };
    for (const header of ['', '-1', '1.5', 'x', '1e3', '1234567890'])
      await reply(bus, request({ ...asked, [BusHeaders.replyPartition]: header }), {});
    expect(published.map(({ messages }) => 'partition' in messages)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('refuses a message that is not a request', async () => {
    const { bus } = recordingBus();
    await expect(reply(bus, request({}), {})).rejects.toThrow(/no reply-to or correlation-id/);
  });
});

describe('reply partitions', () => {
  it('are the reply number modulo the partition count: consecutive numbers get distinct partitions', () => {
    expect([280, 281, 343, 344].map((worker) => replyPartitionOf(worker, 64))).toEqual([24, 25, 23, 24]);
    expect(replyPartitionOf(5, 1)).toBe(0);
  });

  it('refuse a negative or fractional reply number and a topic without partitions', () => {
    expect(() => replyPartitionOf(-1, 8)).toThrow('a reply number is a non-negative integer, got -1');
    expect(() => replyPartitionOf(1.5, 8)).toThrow('a reply number is a non-negative integer, got 1.5');
    expect(() => replyPartitionOf(3, 0)).toThrow('a reply topic has at least one partition, got 0');
  });

  it('are drawn from a hash of the instance id for a process given no reply number', () => {
    expect(replyNumberOf('')).toBe(0x811c9dc5);
    expect(replyNumberOf('a')).toBe(0xe40c292c);
    expect(replyNumberOf('game-server-1')).toBe(replyNumberOf('game-server-1'));
    expect(replyNumberOf('game-server-1')).not.toBe(replyNumberOf('game-server-2'));
  });
});

describe('namedPartitionProblem', () => {
  it('lets a partition the topic has through, and names what is wrong with any other', () => {
    expect(namedPartitionProblem('wallet.replies', 'c-1', 0, 64)).toBeUndefined();
    expect(namedPartitionProblem('wallet.replies', 'c-1', 63, 64)).toBeUndefined();
    expect(namedPartitionProblem('wallet.replies', 'c-1', 63)).toBeUndefined();
    expect(namedPartitionProblem('wallet.replies', 'c-1', 64, 64)).toBe(
      'message c-1: topic wallet.replies has no partition 64 (it has 64)',
    );
    for (const partition of [-1, 1.5, Number.NaN])
      expect(namedPartitionProblem('wallet.replies', 'c-1', partition, 64)).toBe(
        `topic wallet.replies: a partition is a non-negative integer, got ${partition}`,
      );
  });
});

describe('defaultRetryDelayMs', () => {
  it('doubles from 100 ms and stops at 5 s', () => {
    expect([1, 2, 3, 4, 10].map(defaultRetryDelayMs)).toEqual([100, 200, 400, 800, 5_000]);
  });
});
