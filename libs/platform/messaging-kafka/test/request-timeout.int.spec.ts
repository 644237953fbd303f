/**
 * `request()` against a paused broker: kafkajs's real client talks to a scripted broker, a TCP server
 * that accepts connections and never answers (no Kafka server can run here).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server, type Socket } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { RequestTimeoutError } from '@reelstream/platform-ports';
import { KafkaMessageBus } from '../src/kafka-message-bus.js';
import { TopicManager } from '../src/topics.js';

let server: Server | undefined;
const sockets = new Set<Socket>();

/** Stops accepting, then drops the open connections (close() alone waits for them to end). */
async function stopBroker(): Promise<void> {
  const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await closing;
  server = undefined;
}

afterEach(stopBroker);

async function pausedBroker(): Promise<string> {
  server = createServer((socket) => {
    sockets.add(socket);
    // Reads every request, answers none: a broker stuck in a long GC pause or a network black hole.
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `127.0.0.1:${address.port}`;
}

describe('request/reply against a scripted broker that never answers', () => {
  it('rejects with RequestTimeoutError after timeoutMs even while the reply listener cannot start', async () => {
    const broker = await pausedBroker();
    // kafkajs would wait its own 30 s request timeout per call, and retry.
    const kafka = new Kafka({
      brokers: [broker],
      logLevel: logLevel.NOTHING,
      requestTimeout: 30_000,
      connectionTimeout: 1_000,
    });
    const admin = kafka.admin();
    const bus = new KafkaMessageBus({
      kafka,
      admin,
      producer: kafka.producer(),
      newProducer: () => kafka.producer(),
      topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
      instanceId: 'gateway-test',
      replyNumber: 0,
      membership: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 600, maxWaitTimeMs: 1_000 },
      handlerTimeoutMs: 1_000,
      onError: () => undefined,
    });
    const started = Date.now();
    const reply = bus.request(
      'bonus.commands',
      { key: 'op:p1', value: { kind: 'grant' } },
      { replyTopic: 'bonus.replies', timeoutMs: 300 },
    );
    await expect(reply).rejects.toBeInstanceOf(RequestTimeoutError);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3_000);
    // A second request gets its own full timeout, not a listener promise stuck from the first.
    await expect(
      bus.request('bonus.commands', { key: 'op:p1', value: {} }, { replyTopic: 'bonus.replies', timeoutMs: 200 }),
    ).rejects.toBeInstanceOf(RequestTimeoutError);
    await stopBroker();
    await bus.close().catch(() => undefined);
  }, 20_000);
});
