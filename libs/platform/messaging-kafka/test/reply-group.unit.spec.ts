import { describe, expect, it } from '@jest/globals';
import { KafkaMessageBus, replyGroupId } from '../src/kafka-message-bus.js';
import type { Producer } from 'kafkajs';
import { TopicManager } from '../src/topics.js';
import { scriptedKafka } from './scripted-kafka-consumer.js';

describe('reply consumer groups', () => {
  it('gives each reply topic of an instance a group of its own', () => {
    expect(replyGroupId('gateway-7f3a', 'bonus.replies')).toBe('reply.gateway-7f3a.bonus.replies');
    expect(replyGroupId('gateway-7f3a', 'wallet.replies')).not.toBe(replyGroupId('gateway-7f3a', 'bonus.replies'));
    expect(replyGroupId('game-server-1', 'bonus.replies')).not.toBe(replyGroupId('gateway-7f3a', 'bonus.replies'));
  });

  it('starts a restarted instance at the end of its reply topic even where the group committed, and deletes the group on close (scripted kafkajs consumer)', async () => {
    // The group still holds offset 3 from an earlier life; the topic's end is 57.
    const { kafka, admin, created, deletedGroups } = scriptedKafka('3');
    const sent: string[] = [];
    const producer = {
      sendBatch: async ({ topicMessages }: { topicMessages: { topic: string }[] }) =>
        void sent.push(...topicMessages.map(({ topic }) => topic)),
      disconnect: async () => undefined,
    } as unknown as Producer;
    const bus = new KafkaMessageBus({
      kafka,
      admin,
      producer,
      newProducer: () => producer,
      topics: new TopicManager(admin, { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }),
      instanceId: 'gateway-7f3a',
      replyNumber: 0,
      membership: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 600, maxWaitTimeMs: 100 },
      handlerTimeoutMs: 1_000,
      onError: () => undefined,
    });
    const reply = bus.request(
      'bonus.commands',
      { key: 'op:p1', value: {} },
      { replyTopic: 'bonus.replies', timeoutMs: 200 },
    );
    await expect(reply).rejects.toThrow(/no reply/);
    expect(sent).toEqual(['bonus.commands']);
    expect(created[0]?.seeks).toEqual([{ topic: 'bonus.replies', partition: 0, offset: '57' }]);
    // It reads its reply partition only (the topic has one partition here, so reply number 0 reads partition 0).
    expect(created[0]?.pausing).toEqual([
      { pause: [{ topic: 'bonus.replies' }] },
      { resume: [{ topic: 'bonus.replies', partitions: [0] }] },
    ]);
    await bus.close();
    expect(deletedGroups).toEqual(['reply.gateway-7f3a.bonus.replies']);
  });
});
