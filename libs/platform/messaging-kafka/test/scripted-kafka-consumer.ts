/**
 * A stand-in for kafkajs's consumer object that emits the events kafkajs would, for tests of what
 * the adapter does around it (no broker can run here).
 */
import { EventEmitter } from 'node:events';
import type { Admin, Kafka } from 'kafkajs';

class ScriptedKafkaConsumer extends EventEmitter {
  readonly events = { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash' };
  runs = 0;
  stopped = false;
  override on(event: string, listener: (event: { payload: Record<string, unknown> }) => void): this {
    return super.on(event, listener);
  }
  async connect(): Promise<void> {
    return undefined;
  }
  topics: string[] = [];
  async subscribe({ topics }: { topics: string[] }): Promise<void> {
    this.topics = topics;
  }
  eachBatch: ((payload: unknown) => Promise<void>) | undefined;
  async run(config: { eachBatch?: (payload: unknown) => Promise<void> }): Promise<void> {
    this.eachBatch = config.eachBatch;
    this.runs++;
    const memberAssignment = Object.fromEntries(this.topics.map((topic) => [topic, [0]]));
    setTimeout(() => this.emit(this.events.GROUP_JOIN, { payload: { memberAssignment } }), 5);
  }
  readonly seeks: unknown[] = [];
  seek(seek: unknown): void {
    this.seeks.push(seek);
  }
  /** Every pause and resume, in order. */
  readonly pausing: { pause?: unknown; resume?: unknown }[] = [];
  pause(topicPartitions: unknown): void {
    this.pausing.push({ pause: topicPartitions });
  }
  resume(topicPartitions: unknown): void {
    this.pausing.push({ resume: topicPartitions });
  }
  async stop(): Promise<void> {
    this.stopped = true;
  }
  async disconnect(): Promise<void> {
    return undefined;
  }
  crash(restart: boolean): void {
    this.emit(this.events.CRASH, {
      payload: { error: new Error('KafkaJSNonRetriableError: topic authorization failed'), restart },
    });
  }
}

export function scriptedKafka(committedOffset = '-1') {
  const created: ScriptedKafkaConsumer[] = [];
  const deletedGroups: string[] = [];
  /** The end of partition 0 of every topic; a test moves it to stand for records published meanwhile. */
  const end = { high: '57' };
  /** What each `kafka.consumer(config)` was given. */
  const configs: Record<string, unknown>[] = [];
  const kafka = {
    consumer: (config: Record<string, unknown>) => {
      configs.push(config);
      const consumer = new ScriptedKafkaConsumer();
      created.push(consumer);
      return consumer;
    },
  } as unknown as Kafka;
  const admin = {
    createTopics: async () => true,
    fetchTopicMetadata: async () => ({ topics: [{ name: 't', partitions: [{ partitionId: 0 }] }] }),
    fetchOffsets: async () => [{ topic: 't', partitions: [{ partition: 0, offset: committedOffset, metadata: null }] }],
    fetchTopicOffsets: async () => [{ partition: 0, offset: '0', high: end.high, low: '0' }],
    deleteGroups: async (groupIds: string[]) => {
      deletedGroups.push(...groupIds);
      return [];
    },
    disconnect: async () => undefined,
  } as unknown as Admin;
  return { kafka, admin, created, deletedGroups, configs, end };
}
