import { describe, expect, it } from '@jest/globals';
import type { Admin } from 'kafkajs';
import { kafkaSettings } from '../src/open.js';
import { TopicManager, defaultTopicSettings } from '../src/topics.js';

describe('topic replication settings (no broker: the admin calls are recorded)', () => {
  it('defaults to min(3, brokers) replicas and min(2, replicas) in-sync replicas', () => {
    expect(defaultTopicSettings(1)).toEqual({ partitions: 16, replicationFactor: 1, minInsyncReplicas: 1 });
    expect(defaultTopicSettings(3)).toEqual({ partitions: 16, replicationFactor: 3, minInsyncReplicas: 2 });
    expect(defaultTopicSettings(5)).toEqual({ partitions: 16, replicationFactor: 3, minInsyncReplicas: 2 });
    expect(defaultTopicSettings(5, { replicationFactor: 5, minInsyncReplicas: 3, partitions: 32 })).toEqual({
      partitions: 32,
      replicationFactor: 5,
      minInsyncReplicas: 3,
    });
  });

  it('refuses settings no cluster could honour', () => {
    expect(() => defaultTopicSettings(3, { replicationFactor: 2, minInsyncReplicas: 3 })).toThrow(
      /exceeds replicationFactor/,
    );
    expect(() => defaultTopicSettings(1, { replicationFactor: 3 })).toThrow(/the cluster has 1/);
  });

  it('creates topics with the replication factor and min.insync.replicas it was given', async () => {
    const calls: unknown[] = [];
    const admin = {
      createTopics: async (request: unknown) => {
        calls.push(request);
        return true;
      },
      fetchTopicOffsets: async () => [],
    } as unknown as Admin;
    await new TopicManager(admin, defaultTopicSettings(3)).ensure(['wallet.requests']);
    expect(calls).toEqual([
      {
        waitForLeaders: true,
        topics: [
          {
            topic: 'wallet.requests',
            numPartitions: 16,
            replicationFactor: 3,
            configEntries: [{ name: 'min.insync.replicas', value: '2' }],
          },
        ],
      },
    ]);
  });

  it('reads KAFKA_* variables when no option is given, options winning, and rejects bad values', () => {
    const env = {
      KAFKA_PARTITIONS: '8',
      KAFKA_REPLICATION_FACTOR: '3',
      KAFKA_MIN_INSYNC_REPLICAS: '2',
      KAFKA_HANDLER_TIMEOUT_MS: '15000',
    };
    expect(kafkaSettings({}, env)).toMatchObject({
      topics: { partitions: 8, replicationFactor: 3, minInsyncReplicas: 2 },
      handlerTimeoutMs: 15_000,
    });
    expect(kafkaSettings({ replicationFactor: 2 }, env).topics.replicationFactor).toBe(2);
    expect(kafkaSettings({}, {})).toMatchObject({ topics: {}, handlerTimeoutMs: 60_000 });
    expect(() => kafkaSettings({}, { KAFKA_REPLICATION_FACTOR: 'three' })).toThrow(
      /KAFKA_REPLICATION_FACTOR must be a positive integer/,
    );
    expect(() => kafkaSettings({}, { KAFKA_MIN_INSYNC_REPLICAS: '0' })).toThrow(/KAFKA_MIN_INSYNC_REPLICAS/);
  });
});
