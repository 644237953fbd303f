/**
 * `publish` through kafkajs's real producer (`kafkajs/src/producer`: partitioner, sequence numbers,
 * retrier) against a scripted broker that de-duplicates as a Kafka broker does, by producer id and
 * sequence number (no Kafka server can run here).
 */
import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { Partitioners, type Admin, type Kafka, type Producer, type ProducerConfig } from 'kafkajs';
import { KafkaMessageBus } from '../src/kafka-message-bus.js';
import { PRODUCER_CONFIG } from '../src/open.js';
import { TopicManager } from '../src/topics.js';

const require = createRequire(import.meta.url);
const createProducer = require('kafkajs/src/producer/index.js') as (options: Record<string, unknown>) => Producer;
const { createLogger, LEVELS } = require('kafkajs/src/loggers/index.js') as {
  createLogger(options: { level: number; logCreator: () => () => void }): unknown;
  LEVELS: Record<string, number>;
};
const { createErrorFromCode } = require('kafkajs/src/protocol/error.js') as {
  createErrorFromCode(code: number): Error;
};
const REQUEST_TIMED_OUT = 7;

interface ProduceRequest {
  producerId: number;
  topicData: {
    topic: string;
    partitions: {
      partition: number;
      firstSequence?: number;
      messages: { key: Buffer | string; value: Buffer | string }[];
    }[];
  }[];
}

/** A single-broker, single-partition cluster whose first produce is written but its answer lost. */
function scriptedCluster() {
  const log: string[] = [];
  const lastSequence = new Map<string, number>();
  let produces = 0;
  const broker = {
    nodeId: 0,
    async initProducerId() {
      return { producerId: 4242, producerEpoch: 0 };
    },
    async produce(request: ProduceRequest) {
      produces++;
      for (const { topic, partitions } of request.topicData) {
        for (const { partition, firstSequence, messages } of partitions) {
          const id = `${request.producerId}/${topic}/${partition}`;
          const duplicate =
            request.producerId >= 0 && firstSequence !== undefined && firstSequence <= (lastSequence.get(id) ?? -1);
          if (duplicate) continue;
          if (request.producerId >= 0 && firstSequence !== undefined)
            lastSequence.set(id, firstSequence + messages.length - 1);
          for (const message of messages) log.push(`${String(message.key)}=${String(message.value)}`);
        }
      }
      // The records are on disk, but the answer never reaches the producer.
      if (produces === 1) throw createErrorFromCode(REQUEST_TIMED_OUT);
      return {
        topics: request.topicData.map(({ topic, partitions }) => ({
          topicName: topic,
          partitions: partitions.map(({ partition }) => ({ partition, errorCode: 0, baseOffset: '0' })),
        })),
      };
    },
  };
  const cluster = {
    retry: { initialRetryTime: 5, maxRetryTime: 20 },
    targetTopics: new Set<string>(),
    connect: async () => undefined,
    disconnect: async () => undefined,
    isConnected: () => true,
    refreshMetadata: async () => undefined,
    refreshMetadataIfNecessary: async () => undefined,
    addMultipleTargetTopics: async (topics: string[]) => topics.forEach((topic) => cluster.targetTopics.add(topic)),
    findTopicPartitionMetadata: () => [{ partitionId: 0, leader: 0, replicas: [0], isr: [0] }],
    findLeaderForPartitions: (_topic: string, partitions: number[]) => ({ 0: partitions }),
    findBroker: async () => broker,
    findControllerBroker: async () => broker,
  };
  return { cluster, log };
}

async function publishThroughLostAnswer(config: ProducerConfig): Promise<string[]> {
  const { cluster, log } = scriptedCluster();
  const producer = createProducer({
    cluster,
    logger: createLogger({ level: LEVELS['NOTHING'] ?? 0, logCreator: () => () => undefined }),
    ...config,
  });
  await producer.connect();
  const admin = { createTopics: async () => true, fetchTopicOffsets: async () => [] } as unknown as Admin;
  const bus = new KafkaMessageBus({
    kafka: {} as Kafka,
    admin,
    producer,
    newProducer: () => producer,
    topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
    instanceId: 'relay-1',
    replyNumber: 0,
    membership: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 600, maxWaitTimeMs: 100 },
    handlerTimeoutMs: 1_000,
    onError: () => undefined,
  });
  await bus.publish('wallet.requests', [
    { key: 'op:p1', value: 1 },
    { key: 'op:p1', value: 2 },
    { key: 'op:p1', value: 3 },
  ]);
  return log;
}

describe('publishing through a retried produce (kafkajs producer, scripted broker)', () => {
  it('writes each record once and in order when the first answer is lost: the retry carries the same sequence', async () => {
    expect(await publishThroughLostAnswer(PRODUCER_CONFIG)).toEqual(['op:p1=1', 'op:p1=2', 'op:p1=3']);
    expect(PRODUCER_CONFIG).toMatchObject({ idempotent: true, maxInFlightRequests: 1 });
  });

  it('would write the batch twice with the non-idempotent producer the bus used before', async () => {
    const before: ProducerConfig = {
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    };
    expect(await publishThroughLostAnswer(before)).toEqual([
      'op:p1=1',
      'op:p1=2',
      'op:p1=3',
      'op:p1=1',
      'op:p1=2',
      'op:p1=3',
    ]);
  });
});
