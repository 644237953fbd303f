/**
 * The bus retires its producer after a rejected send (the lost-acknowledgement case against a real
 * broker is test/faults/lost-ack.int.spec.ts): here, with recorded producers, what the next sends use
 * and what readiness says meanwhile; and that two sends are never in flight at once.
 */
import { describe, expect, it } from '@jest/globals';
import type { Producer } from 'kafkajs';
import { KafkaMessageBus } from '../src/kafka-message-bus.js';
import { TopicManager } from '../src/topics.js';
import { scriptedKafka } from './scripted-kafka-consumer.js';

interface RecordedProducer {
  producer: Producer;
  name: string;
  sent: string[];
  disconnected: boolean;
}

function recordedProducer(name: string, fail: () => boolean, connect: () => Promise<void>): RecordedProducer {
  const recorded: RecordedProducer = { producer: {} as Producer, name, sent: [], disconnected: false };
  recorded.producer = {
    connect,
    sendBatch: async ({ topicMessages }: { topicMessages: { messages: { value: string }[] }[] }) => {
      if (fail()) throw new Error('The request timed out');
      for (const { messages } of topicMessages) recorded.sent.push(...messages.map((message) => String(message.value)));
      return [];
    },
    disconnect: async () => {
      recorded.disconnected = true;
    },
  } as unknown as Producer;
  return recorded;
}

describe('producer replacement after a rejected send', () => {
  it('sends nothing more through a producer that rejected a send, and reports unhealthy until a new one is connected', async () => {
    const { kafka, admin } = scriptedKafka('0');
    let failing = true;
    const first = recordedProducer(
      'first',
      () => failing,
      async () => undefined,
    );
    const producers: RecordedProducer[] = [];
    let connected: () => void = () => undefined;
    const bus = new KafkaMessageBus({
      kafka,
      admin,
      producer: first.producer,
      newProducer: () => {
        const fresh = recordedProducer(
          `fresh-${producers.length}`,
          () => false,
          () => new Promise<void>((resolve) => (connected = resolve)),
        );
        producers.push(fresh);
        return fresh.producer;
      },
      topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
      instanceId: 'relay-1',
      replyNumber: 0,
      membership: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 600, maxWaitTimeMs: 100 },
      handlerTimeoutMs: 1_000,
      onError: () => undefined,
    });
    const consumer = await bus.subscribe({ groupId: 'g', topics: ['t'], handler: async () => undefined });
    await consumer.ready;
    expect(consumer.healthy).toBe(true);

    await expect(bus.publish('t', { key: 'op:p1', value: 'lost-ack' })).rejects.toThrow(/timed out/);
    failing = false;
    expect(bus.producerHealthy).toBe(false);
    expect(consumer.healthy).toBe(false);
    const next = bus.publish('t', { key: 'op:p1', value: 'next' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The next send waits for the new producer instead of going through the old one.
    expect(first.sent).toEqual([]);
    expect(first.disconnected).toBe(true);
    connected();
    await next;
    expect(producers.map((recorded) => [recorded.name, recorded.sent])).toEqual([['fresh-0', ['"next"']]]);
    expect(bus.producerHealthy).toBe(true);
    expect(consumer.healthy).toBe(true);
    await bus.close();
  });

  it('never has two sends in flight: what is published during a send goes out together as the next one', async () => {
    const { kafka, admin } = scriptedKafka('0');
    let inFlight = 0;
    let mostInFlight = 0;
    const sends: string[][] = [];
    let release: () => void = () => undefined;
    const producer = {
      connect: async () => undefined,
      disconnect: async () => undefined,
      sendBatch: async ({ topicMessages }: { topicMessages: { topic: string; messages: { value: string }[] }[] }) => {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        sends.push(topicMessages.flatMap(({ topic, messages }) => messages.map((m) => `${topic}:${String(m.value)}`)));
        if (sends.length === 1) await new Promise<void>((resolve) => (release = resolve));
        inFlight--;
        return [];
      },
    } as unknown as Producer;
    const bus = new KafkaMessageBus({
      kafka,
      admin,
      producer,
      newProducer: () => producer,
      topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
      instanceId: 'relay-2',
      replyNumber: 0,
      membership: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 600, maxWaitTimeMs: 100 },
      handlerTimeoutMs: 1_000,
      onError: () => undefined,
    });
    const first = bus.publish('t', { key: 'op:p1', value: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const queued = [
      bus.publish('t', { key: 'op:p1', value: 'b' }),
      bus.publish('u', { key: 'op:p2', value: 'c' }),
      bus.publish('t', { key: 'op:p1', value: 'd' }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sends).toEqual([['t:"a"']]);
    release();
    await Promise.all([first, ...queued]);
    expect(sends).toEqual([['t:"a"'], ['t:"b"', 't:"d"', 'u:"c"']]);
    expect(mostInFlight).toBe(1);
    await bus.close();
  });
});
