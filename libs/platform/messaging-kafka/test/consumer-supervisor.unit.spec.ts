/**
 * What the adapter does when kafkajs gives a consumer up (`CRASH` with `restart: false`): a scripted
 * stand-in for kafkajs's consumer object emits the events kafkajs would (no broker can run here).
 */
import { describe, expect, it } from '@jest/globals';
import type { Message as KafkaOutgoingMessage } from 'kafkajs';
import type { ParkedMessage } from '@reelstream/platform-ports';
import { startKafkaConsumer } from '../src/kafka-consumer.js';
import { TopicManager } from '../src/topics.js';
import { scriptedKafka } from './scripted-kafka-consumer.js';
import { until } from './scripted-group.js';

describe('group membership settings (scripted kafkajs consumer)', () => {
  it('waits in a rebalance longer than a handler may run plus two session timeouts, so a draining member is not dropped', async () => {
    const { kafka, admin, configs } = scriptedKafka();
    const consumer = await startKafkaConsumer(
      {
        kafka,
        admin,
        topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
        send: async () => undefined,
        membership: { sessionTimeoutMs: 10_000, heartbeatIntervalMs: 1_000, maxWaitTimeMs: 1_000 },
        handlerTimeoutMs: 60_000,
        onError: () => undefined,
      },
      { groupId: 'wallet-dispatcher', topics: ['t'], handler: async () => undefined },
    );
    await consumer.ready;
    // kafkajs's default is 60 s: the default handler deadline itself.
    expect(configs[0]).toMatchObject({ sessionTimeout: 10_000, rebalanceTimeout: 80_000 });
    await consumer.stop();
  });
});

describe('a reply listener recreated after a crash (scripted kafkajs consumer)', () => {
  it('goes on where it was, not from the end again: replies published while it was away are read', async () => {
    const { kafka, admin, created, end } = scriptedKafka();
    const consumer = await startKafkaConsumer(
      {
        kafka,
        admin,
        topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
        send: async () => undefined,
        membership: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 600, maxWaitTimeMs: 100 },
        handlerTimeoutMs: 1_000,
        onError: () => undefined,
      },
      { groupId: 'reply.gateway-1.bonus.replies', topics: ['bonus.replies'], handler: async () => undefined },
      { commits: false, alwaysFromEnd: true },
    );
    await consumer.ready;
    expect(created[0]?.seeks).toEqual([{ topic: 'bonus.replies', partition: 0, offset: '57' }]);
    // Replies 57…63 are published while kafkajs gives the consumer up and a new one is made.
    end.high = '64';
    created[0]?.crash(false);
    await until(() => (created[1]?.seeks.length ?? 0) > 0, 5_000);
    expect(created[1]?.seeks).toEqual([{ topic: 'bonus.replies', partition: 0, offset: '57' }]);
    await consumer.stop();
  });
});

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
    // kafkajs restarts a retriable crash itself: nothing to do (the count at the end, past every back-off, shows it).
    created[0]?.crash(true);
    expect(created).toHaveLength(1);
    // A crash it will not restart from: a fresh consumer after the first back-off (1 s).
    created[0]?.crash(false);
    await until(() => created.length === 2 && created[1]?.runs === 1, 5_000);
    expect(errors).toHaveLength(2);
    await consumer.stop();
    expect(created[1]?.stopped).toBe(true);
    // Once stopped, a late crash does not bring it back. An absence: waited out past the first back-off (1 s),
    // when a recreation for it, or for the retriable crash above, would have come.
    created[1]?.crash(false);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(created).toHaveLength(2);
  });
});

describe('consumer health (scripted kafkajs consumer)', () => {
  it('is unhealthy from a crash until the restarted or recreated consumer joins again, and once stopped', async () => {
    const { kafka, admin, created } = scriptedKafka();
    const consumer = await startKafkaConsumer(
      {
        kafka,
        admin,
        topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
        send: async () => undefined,
        membership: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 600, maxWaitTimeMs: 100 },
        handlerTimeoutMs: 1_000,
        onError: () => undefined,
      },
      { groupId: 'wallet-dispatcher', topics: ['t'], handler: async () => undefined },
    );
    expect(consumer.healthy).toBe(false);
    await consumer.ready;
    expect(consumer.healthy).toBe(true);
    // kafkajs restarts a retriable crash itself: unhealthy until that consumer joins again.
    const first = created[0];
    first?.crash(true);
    expect(consumer.healthy).toBe(false);
    first?.emit(first.events.GROUP_JOIN, { payload: { memberAssignment: { t: [0] } } });
    expect(consumer.healthy).toBe(true);
    // A crash kafkajs will not restart from: unhealthy through the back-off until the new consumer joined.
    first?.crash(false);
    expect(consumer.healthy).toBe(false);
    await until(() => created.length === 2, 5_000);
    await until(() => consumer.healthy, 1_000);
    // A late crash of the replaced consumer says nothing about the new one.
    first?.crash(false);
    expect(consumer.healthy).toBe(true);
    await consumer.stop();
    expect(consumer.healthy).toBe(false);
  });
});

describe('parking through the consumer (scripted kafkajs consumer)', () => {
  it('parks an undecodable record with attempts 0 on the dead-letter topic, reports it to onParked, then commits past it', async () => {
    const { kafka, admin, created } = scriptedKafka();
    const sent: { topic: string; messages: KafkaOutgoingMessage[] }[] = [];
    const parked: ParkedMessage[] = [];
    const commits: unknown[] = [];
    const consumer = await startKafkaConsumer(
      {
        kafka,
        admin,
        topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
        send: async (topic, messages) => void sent.push({ topic, messages }),
        membership: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 600, maxWaitTimeMs: 100 },
        handlerTimeoutMs: 1_000,
        onError: () => undefined,
        onParked: (message) => parked.push(message),
      },
      { groupId: 'wallet-dispatcher', topics: ['t'], handler: async () => undefined },
    );
    await consumer.ready;
    const record = {
      offset: '7',
      key: Buffer.from('op:p1'),
      value: Buffer.from('{not json'),
      headers: {},
      timestamp: '0',
      attributes: 0,
    };
    await created[0]?.eachBatch?.({
      batch: { topic: 't', partition: 0, messages: [record] },
      resolveOffset: () => undefined,
      heartbeat: async () => undefined,
      commitOffsetsIfNecessary: async (offsets: unknown) => void commits.push(offsets),
      isRunning: () => true,
      isStale: () => false,
    });
    expect(sent.map(({ topic }) => topic)).toEqual(['t.dlq']);
    expect(sent[0]?.messages[0]?.headers).toMatchObject({ 'x-dead-letter-attempts': '0', 'x-original-offset': '7' });
    expect(parked).toEqual([
      {
        topic: 't',
        partition: 0,
        offset: '7',
        key: 'op:p1',
        deadLetterTopic: 't.dlq',
        reason: expect.stringMatching(/^value is not JSON/),
        attempts: 0,
        groupId: 'wallet-dispatcher',
      },
    ]);
    expect(commits.at(-1)).toEqual({
      topics: [{ topic: 't', partitions: [{ partition: 0, offset: '8', metadata: null }] }],
    });
    await consumer.stop();
  });
});
