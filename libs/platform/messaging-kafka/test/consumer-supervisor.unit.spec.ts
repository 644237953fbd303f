/**
 * What the adapter does when kafkajs gives a consumer up (`CRASH` with `restart: false`): a scripted
 * stand-in for kafkajs's consumer object emits the events kafkajs would (no broker can run here).
 */
import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { Admin, Kafka } from 'kafkajs';
import { startKafkaConsumer } from '../src/kafka-consumer.js';
import { TopicManager } from '../src/topics.js';
import { until } from './scripted-group.js';

class ScriptedKafkaConsumer extends EventEmitter {
  readonly events = { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash' };
  runs = 0;
  stopped = false;
  override on(event: string, listener: (event: { payload: Record<string, unknown> }) => void): this {
    return super.on(event, listener);
  }
  async connect(): Promise<void> {}
  async subscribe(): Promise<void> {}
  async run(): Promise<void> {
    this.runs++;
    setTimeout(() => this.emit(this.events.GROUP_JOIN, { payload: { memberAssignment: { t: [0] } } }), 5);
  }
  seek(): void {}
  async stop(): Promise<void> {
    this.stopped = true;
  }
  async disconnect(): Promise<void> {}
  crash(restart: boolean): void {
    this.emit(this.events.CRASH, { payload: { error: new Error('KafkaJSNonRetriableError: topic authorization failed'), restart } });
  }
}

function scriptedKafka() {
  const created: ScriptedKafkaConsumer[] = [];
  const kafka = {
    consumer: () => {
      const consumer = new ScriptedKafkaConsumer();
      created.push(consumer);
      return consumer;
    },
  } as unknown as Kafka;
  const admin = {
    createTopics: async () => true,
    fetchTopicMetadata: async () => ({ topics: [{ name: 't', partitions: [{ partitionId: 0 }] }] }),
    fetchOffsets: async () => [{ topic: 't', partitions: [{ partition: 0, offset: '-1', metadata: null }] }],
    fetchTopicOffsets: async () => [{ partition: 0, offset: '0', high: '0', low: '0' }],
  } as unknown as Admin;
  return { kafka, admin, created };
}

describe('a consumer kafkajs will not restart (scripted kafkajs consumer)', () => {
  it('is replaced by a new kafkajs consumer that rejoins, and the failure is reported', async () => {
    const { kafka, admin, created } = scriptedKafka();
    const errors: unknown[] = [];
    const consumer = await startKafkaConsumer(
      {
        kafka,
        admin,
        topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
        send: async () => undefined,
        membership: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 600, maxWaitTimeMs: 100 },
        handlerTimeoutMs: 1_000,
        onError: (error) => errors.push(error),
      },
      { groupId: 'wallet-dispatcher', topics: ['t'], handler: async () => undefined },
    );
    await consumer.ready;
    expect(created).toHaveLength(1);
    // kafkajs restarts a retriable crash itself: nothing to do.
    created[0]?.crash(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(created).toHaveLength(1);
    // A crash it will not restart from: a fresh consumer after the first back-off (1 s).
    created[0]?.crash(false);
    await until(() => created.length === 2 && created[1]?.runs === 1, 5_000);
    expect(errors).toHaveLength(2);
    await consumer.stop();
    expect(created[1]?.stopped).toBe(true);
    // Once stopped, a late crash does not bring it back.
    created[1]?.crash(false);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(created).toHaveLength(2);
  });
});
