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

  it("waits out kafkajs's TypeError for a topic whose partitions have no leader yet (a broker just restarted)", async () => {
    /** What kafkajs's fetchTopicOffsets does when its offsets request covered no partition. */
    const leaderless = () => {
      const high: { partitions: unknown[] }[] = [];
      const { partitions } = high.pop() as { partitions: unknown[] };
      return partitions;
    };
    let reads = 0;
    const admin = {
      createTopics: async () => true,
      fetchTopicOffsets: async () => (++reads < 3 ? leaderless() : []),
    } as unknown as Admin;
    await new TopicManager(admin, defaultTopicSettings(1)).ensure(['wallet.replies']);
    expect(reads).toBe(3);

    // Any other TypeError is a bug, not a broker on its way back: it is thrown at once.
    const broken = {
      createTopics: async () => true,
      fetchTopicOffsets: async () => {
        throw new TypeError('Cannot read properties of undefined');
      },
    } as unknown as Admin;
    await expect(new TopicManager(broken, defaultTopicSettings(1)).ensure(['wallet.replies'])).rejects.toThrow(
      'Cannot read properties of undefined',
    );
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
