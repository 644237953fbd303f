import { randomUUID } from 'node:crypto';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import type { MessageBus } from '@reelstream/ports';
import { KafkaMessageBus } from './kafka-message-bus.js';
import { DEFAULT_PARTITIONS, DEFAULT_REPLICATION_FACTOR, TopicManager } from './topics.js';

export interface KafkaMessageBusOptions {
  /**
   * Names this process in reply routing (groups `reply.${instanceId}.${replyTopic}`): unique per
   * process, or two processes would split one reply topic's partitions. Default: a random id.
   */
  instanceId?: string;
  clientId?: string;
  /** Partitions of topics the bus creates. Default 16. */
  partitions?: number;
  /** Replication factor of topics the bus creates. Default 1 (a single broker). */
  replicationFactor?: number;
  /**
   * How long a silent consumer keeps its partitions: a crashed process's partitions move to another
   * member after this. Default 10 s (kafkajs' own default is 30 s); heartbeats go every tenth of it.
   */
  sessionTimeoutMs?: number;
}

export const DEFAULT_SESSION_TIMEOUT_MS = 10_000;

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/**
 * Connects a producer (acks from all in-sync replicas, the Java client's partitioner so keys land where
 * other Kafka clients put them) and an admin client (to create topics), and returns the bus.
 */
export async function openKafkaMessageBus(brokers: string[], options: KafkaMessageBusOptions = {}): Promise<MessageBus> {
  if (brokers.length === 0) throw new RangeError('openKafkaMessageBus needs at least one broker');
  const instanceId = options.instanceId ?? randomUUID();
  const kafka = new Kafka({ clientId: options.clientId ?? `reelstream-${instanceId}`, brokers, logLevel: logLevel.WARN });
  const topics = {
    partitions: positiveInteger('partitions', options.partitions ?? DEFAULT_PARTITIONS),
    replicationFactor: positiveInteger('replicationFactor', options.replicationFactor ?? DEFAULT_REPLICATION_FACTOR),
  };
  const sessionTimeoutMs = positiveInteger('sessionTimeoutMs', options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS);
  const admin = kafka.admin();
  // Not the idempotent producer: it is experimental in kafkajs and would not de-duplicate end to end
  // anyway (a retried publish after a timeout is a new record); consumers are idempotent instead.
  const producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  try {
    await admin.connect();
    await producer.connect();
  } catch (error) {
    await Promise.allSettled([admin.disconnect(), producer.disconnect()]);
    throw new Error(`cannot reach Kafka at ${brokers.join(',')}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return new KafkaMessageBus({
    kafka,
    admin,
    producer,
    topics: new TopicManager(admin, topics),
    instanceId,
    membership: {
      sessionTimeoutMs,
      heartbeatIntervalMs: Math.max(100, Math.floor(sessionTimeoutMs / 10)),
      maxWaitTimeMs: Math.min(1_000, Math.floor(sessionTimeoutMs / 3)),
    },
    // kafkajs logs its own failures (at WARN and above); this only adds the ones the bus observes.
    onError: (error) => kafka.logger().warn('message bus error', { error: error instanceof Error ? error.message : String(error) }),
  });
}
