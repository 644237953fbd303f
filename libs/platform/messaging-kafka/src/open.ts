import { randomUUID } from 'node:crypto';
import { Kafka, Partitioners, logLevel, type ProducerConfig } from 'kafkajs';
import { replyNumberOf, type MessageBus, type ParkedMessageObserver } from '@reelstream/platform-ports';
import { KafkaMessageBus } from './kafka-message-bus.js';
import { kafkaLogCreator, type KafkaLog } from './log.js';
import { booleanSetting, kafkaSecurity } from './kafka-security.js';
import { MISSING_TOPIC_WAIT_MS, TopicManager, defaultTopicSettings, type TopicSettings } from './topics.js';

export interface KafkaMessageBusOptions {
  /**
   * Names this process in reply routing (groups `reply.${instanceId}.${replyTopic}`): unique per
   * process, or two processes would split one reply topic's partitions. Default: a random id.
   */
  instanceId?: string;
  /**
   * Picks the one partition of each reply topic this process reads (`replyPartitionOf`): its worker id.
   * Default: a hash of the instance id.
   */
  replyNumber?: number;
  clientId?: string;
  /** Partitions of topics the bus creates. Default `KAFKA_PARTITIONS`, else 16. */
  partitions?: number;
  /** Replication factor of topics the bus creates. Default `KAFKA_REPLICATION_FACTOR`, else min(3, brokers in the cluster). */
  replicationFactor?: number;
  /** `min.insync.replicas` of topics the bus creates. Default `KAFKA_MIN_INSYNC_REPLICAS`, else min(2, replication factor). */
  minInsyncReplicas?: number;
  /**
   * How long a silent consumer keeps its partitions: a crashed process's partitions move to another
   * member after this. Default `KAFKA_SESSION_TIMEOUT_MS`, else 10 s (kafkajs' own default is 30 s);
   * heartbeats go every tenth of it.
   */
  sessionTimeoutMs?: number;
  /** A handler attempt still running after this long counts as failed. Default `KAFKA_HANDLER_TIMEOUT_MS`, else 60 s. */
  handlerTimeoutMs?: number;
  /**
   * How long kafkajs waits for a broker's answer before it retries the request. Default
   * `KAFKA_REQUEST_TIMEOUT_MS`, else kafkajs's 30 s.
   */
  requestTimeoutMs?: number;
  /** Told about every message the bus parks on a dead-letter topic. */
  onParked?: ParkedMessageObserver;
  /** Where kafkajs's own lines (WARN and above) and the bus's errors go. Default: kafkajs's console lines. */
  log?: KafkaLog;
}

const DEFAULT_SESSION_TIMEOUT_MS = 10_000;
const DEFAULT_HANDLER_TIMEOUT_MS = 60_000;

/** Environment variables the adapter reads when an option is not given (docs/configuration.md). */
const KAFKA_ENV = {
  partitions: 'KAFKA_PARTITIONS',
  replicationFactor: 'KAFKA_REPLICATION_FACTOR',
  minInsyncReplicas: 'KAFKA_MIN_INSYNC_REPLICAS',
  handlerTimeoutMs: 'KAFKA_HANDLER_TIMEOUT_MS',
  sessionTimeoutMs: 'KAFKA_SESSION_TIMEOUT_MS',
  requestTimeoutMs: 'KAFKA_REQUEST_TIMEOUT_MS',
} as const;

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** An option, else its environment variable (a positive integer), else `undefined`. */
function setting(name: keyof typeof KAFKA_ENV, given: number | undefined, env: NodeJS.ProcessEnv): number | undefined {
  if (given !== undefined) return positiveInteger(name, given);
  const raw = env[KAFKA_ENV[name]];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim()))
    throw new RangeError(`${KAFKA_ENV[name]} must be a positive integer, got ${JSON.stringify(raw)}`);
  return positiveInteger(KAFKA_ENV[name], Number(raw.trim()));
}

/** The configured topic settings and handler deadline, checked before anything connects. */
export function kafkaSettings(options: KafkaMessageBusOptions, env: NodeJS.ProcessEnv = process.env) {
  const topics: Partial<TopicSettings> = {};
  const partitions = setting('partitions', options.partitions, env);
  const replicationFactor = setting('replicationFactor', options.replicationFactor, env);
  const minInsyncReplicas = setting('minInsyncReplicas', options.minInsyncReplicas, env);
  if (partitions !== undefined) topics.partitions = partitions;
  if (replicationFactor !== undefined) topics.replicationFactor = replicationFactor;
  if (minInsyncReplicas !== undefined) topics.minInsyncReplicas = minInsyncReplicas;
  return {
    topics,
    security: kafkaSecurity(env),
    // Default true; false in production, where `npm run kafka:topics -- create` makes the topics.
    autoCreateTopics: booleanSetting(env, 'KAFKA_AUTO_CREATE_TOPICS', true),
    handlerTimeoutMs: setting('handlerTimeoutMs', options.handlerTimeoutMs, env) ?? DEFAULT_HANDLER_TIMEOUT_MS,
    sessionTimeoutMs: setting('sessionTimeoutMs', options.sessionTimeoutMs, env) ?? DEFAULT_SESSION_TIMEOUT_MS,
    requestTimeoutMs: setting('requestTimeoutMs', options.requestTimeoutMs, env),
  };
}

/**
 * The bus's producer: idempotent (the broker drops a batch kafkajs resends after a lost answer, by
 * producer id and sequence number) with one request in flight, so its own retries neither duplicate
 * a record nor reorder a key. kafkajs' idempotent producer retries for ever by default; five retries
 * keep a publish bounded, and a publish its caller repeats after a failure may then duplicate
 * (consumers are idempotent).
 */
export const PRODUCER_CONFIG: ProducerConfig = {
  allowAutoTopicCreation: false,
  createPartitioner: Partitioners.DefaultPartitioner,
  idempotent: true,
  maxInFlightRequests: 1,
  retry: { retries: 5 },
};

/**
 * Connects a producer and an admin client (to create topics) and returns the bus. The producer is
 * idempotent with one request in flight: its own retries neither duplicate a record nor reorder a
 * key; acks come from all in-sync replicas; the Java client's partitioner puts keys where other Kafka
 * clients put them.
 */
export async function openKafkaMessageBus(
  brokers: string[],
  options: KafkaMessageBusOptions = {},
): Promise<MessageBus> {
  if (brokers.length === 0) throw new RangeError('openKafkaMessageBus needs at least one broker');
  const settings = kafkaSettings(options);
  const instanceId = options.instanceId ?? randomUUID();
  const kafka = new Kafka({
    clientId: options.clientId ?? `reelstream-${instanceId}`,
    brokers,
    logLevel: logLevel.WARN,
    ...(options.log ? { logCreator: kafkaLogCreator(options.log) } : {}),
    ...(settings.requestTimeoutMs === undefined ? {} : { requestTimeout: settings.requestTimeoutMs }),
    ...settings.security,
  });
  const admin = kafka.admin();
  const producer = kafka.producer(PRODUCER_CONFIG);
  let topicSettings: TopicSettings;
  try {
    await admin.connect();
    await producer.connect();
    const { brokers: cluster } = await admin.describeCluster();
    topicSettings = defaultTopicSettings(cluster.length, settings.topics);
  } catch (error) {
    await Promise.allSettled([admin.disconnect(), producer.disconnect()]);
    if (error instanceof RangeError) throw error;
    throw new Error(
      `cannot reach Kafka at ${brokers.join(',')}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const { sessionTimeoutMs } = settings;
  return new KafkaMessageBus({
    kafka,
    admin,
    producer,
    newProducer: () => kafka.producer(PRODUCER_CONFIG),
    topics: new TopicManager(admin, topicSettings, settings.autoCreateTopics, MISSING_TOPIC_WAIT_MS),
    instanceId,
    replyNumber: options.replyNumber ?? replyNumberOf(instanceId),
    membership: {
      sessionTimeoutMs,
      heartbeatIntervalMs: Math.max(100, Math.floor(sessionTimeoutMs / 10)),
      maxWaitTimeMs: Math.min(1_000, Math.floor(sessionTimeoutMs / 3)),
    },
    handlerTimeoutMs: settings.handlerTimeoutMs,
    // kafkajs logs its own failures (at WARN and above); this only adds the ones the bus observes.
    onError: (error) =>
      kafka.logger().warn('message bus error', { error: error instanceof Error ? error.message : String(error) }),
    ...(options.onParked ? { onParked: options.onParked } : {}),
  });
}
