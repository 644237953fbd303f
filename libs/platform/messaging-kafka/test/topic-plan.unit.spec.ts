/**
 * The platform's topic plan and the `kafka:topics` command. No broker runs
 * here: the admin is a small in-memory cluster that keeps topics, partitions and topic configs the
 * way Kafka reports them (metadata with replicas per partition, configs with their source), so what
 * is tested is the plan, the comparison and what the command asks the cluster to do.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { ConfigSource, type DescribeConfigResponse, type ITopicMetadata } from 'kafkajs';
import { Topics } from '@reelstream/contracts';
import {
  compareTopics,
  describeDifference,
  fixable,
  platformTopics,
  topicOverridesFrom,
  type TopicState,
} from '../src/topic-plan.js';
import { runTopicsCommand, topicStatesFrom, type TopicAdmin } from '../src/topics-cli.js';
import { TopicManager } from '../src/topics.js';

const SETTINGS = { partitions: 16, replicationFactor: 3, minInsyncReplicas: 2 };

/** An in-memory cluster answering the admin calls the command makes. */
class Cluster implements TopicAdmin {
  readonly topics = new Map<string, { partitions: number; replicas: number; configs: Map<string, string> }>();
  readonly calls: string[] = [];
  listTopics = async () => [...this.topics.keys()];
  /** Per group, its committed offset of partition 0 of each topic; every partition ends at `end`. */
  readonly groups = new Map<string, Map<string, number>>();
  end = 10;
  listGroups = async () => ({
    groups: [...this.groups.keys()].map((groupId) => ({ groupId, protocolType: 'consumer' })),
  });
  fetchOffsets = async ({ groupId, topics }: { groupId: string; topics?: string[] }) =>
    (topics ?? []).map((topic) => {
      const offset = this.groups.get(groupId)?.get(topic);
      return {
        topic,
        partitions: [{ partition: 0, offset: offset === undefined ? '-1' : String(offset), metadata: null }],
      };
    });
  fetchTopicOffsets = async (topic: string) =>
    Array.from({ length: this.topics.get(topic)?.partitions ?? 0 }, (_, partition) => ({
      partition,
      offset: String(this.end),
      high: String(this.end),
      low: '0',
    }));
  fetchTopicMetadata = async ({ topics }: { topics: string[] }) => ({
    topics: topics.map((name): ITopicMetadata => ({
      name,
      partitions: Array.from({ length: this.topics.get(name)?.partitions ?? 0 }, (_, partitionId) => ({
        partitionErrorCode: 0,
        partitionId,
        leader: 0,
        replicas: Array.from({ length: this.topics.get(name)?.replicas ?? 0 }, (_, i) => i),
        isr: [],
        offlineReplicas: [],
      })),
    })),
  });
  describeConfigs = async ({ resources }: { resources: { name: string }[] }) =>
    ({
      throttleTime: 0,
      resources: resources.map(({ name }) => ({
        resourceName: name,
        resourceType: 2,
        errorCode: 0,
        errorMessage: '',
        configEntries: [...(this.topics.get(name)?.configs ?? [])].map(([configName, configValue]) => ({
          configName,
          configValue,
          configSource: ConfigSource.TOPIC_CONFIG,
          isDefault: false,
          isSensitive: false,
          readOnly: false,
          configSynonyms: [],
        })),
      })),
    }) as DescribeConfigResponse;
  createTopics = async ({ topics }: Parameters<TopicAdmin['createTopics']>[0]) => {
    for (const t of topics) {
      this.calls.push(`create ${t.topic}`);
      this.topics.set(t.topic, {
        partitions: t.numPartitions ?? 1,
        replicas: t.replicationFactor ?? 1,
        configs: new Map((t.configEntries ?? []).map(({ name, value }) => [name, value])),
      });
    }
    return true;
  };
  createPartitions = async ({ topicPartitions }: Parameters<TopicAdmin['createPartitions']>[0]) => {
    for (const { topic, count } of topicPartitions) {
      this.calls.push(`partitions ${topic} ${count}`);
      const known = this.topics.get(topic);
      if (known) known.partitions = count;
    }
    return true;
  };
  alterConfigs = async ({ resources }: Parameters<TopicAdmin['alterConfigs']>[0]) => {
    for (const { name, configEntries } of resources) {
      this.calls.push(`configs ${name} ${configEntries.map((e) => `${e.name}=${e.value}`).join(',')}`);
      const known = this.topics.get(name);
      // AlterConfigs replaces the topic's configs with the given set, as Kafka's does.
      if (known) known.configs = new Map(configEntries.map((e) => [e.name, e.value]));
    }
  };
}

describe('the topic plan', () => {
  it('names every topic of the platform and a .dlq for each consumed one, with per-topic overrides', () => {
    const planned = platformTopics(SETTINGS, { 'wallet.requests': { partitions: 32 } });
    const names = planned.map((p) => p.topic);
    expect(names).toEqual(
      expect.arrayContaining([...Object.values(Topics), 'bonus.commands.dlq', 'wallet.requests.dlq']),
    );
    expect(names).not.toContain('bonus.events.dlq');
    expect(planned.find((p) => p.topic === 'wallet.requests')).toEqual({
      topic: 'wallet.requests',
      ...SETTINGS,
      partitions: 32,
    });
    expect(planned.find((p) => p.topic === 'bonus.commands')).toEqual({ topic: 'bonus.commands', ...SETTINGS });
  });

  it("gives a topic the partition count the contracts fix for it, under the bus's settings and over an override", () => {
    const limits = (overrides = {}) =>
      platformTopics(SETTINGS, overrides).find((p) => p.topic === Topics.gatewayLimits);
    expect(limits()).toEqual({ topic: 'gateway.limits', ...SETTINGS, partitions: 240 });
    expect(limits({ 'gateway.limits': { partitions: 480 } })?.partitions).toBe(480);
    const replies = platformTopics(SETTINGS).filter(
      (p) => p.topic === Topics.bonusReplies || p.topic === Topics.walletReplies,
    );
    expect(replies.map(({ topic, partitions }) => ({ topic, partitions }))).toEqual([
      { topic: 'bonus.replies', partitions: 64 },
      { topic: 'wallet.replies', partitions: 64 },
    ]);
  });

  it('refuses an override of a topic the platform does not have, a bad shape, and more in-sync replicas than replicas', () => {
    expect(() => platformTopics(SETTINGS, { 'wallet.request': { partitions: 2 } })).toThrow(
      /no such topic of the platform: wallet.request/,
    );
    expect(() => topicOverridesFrom({ KAFKA_TOPIC_SETTINGS: '{"wallet.requests":{"partitions":0}}' })).toThrow(
      /partitions/,
    );
    expect(() => topicOverridesFrom({ KAFKA_TOPIC_SETTINGS: '{"wallet.requests":{"retention":1}}' })).toThrow(
      /KAFKA_TOPIC_SETTINGS/,
    );
    expect(() => topicOverridesFrom({ KAFKA_TOPIC_SETTINGS: 'nope' })).toThrow(/not JSON/);
    expect(() => platformTopics(SETTINGS, { 'bonus.events': { minInsyncReplicas: 4 } })).toThrow(
      /exceeds replicationFactor 3/,
    );
    expect(topicOverridesFrom({ KAFKA_TOPIC_SETTINGS: '{"bonus.events":{"replicationFactor":5}}' })).toEqual({
      'bonus.events': { replicationFactor: 5 },
    });
  });

  it('says how a cluster differs, and which differences the command can fix', () => {
    const planned = platformTopics(SETTINGS).filter((p) =>
      ['bonus.commands', 'wallet.requests', 'bonus.events', 'wallet.replies'].includes(p.topic),
    );
    const actual = new Map<string, TopicState>([
      ['bonus.commands', { partitions: 16, replicationFactor: 3, minInsyncReplicas: 2 }],
      ['wallet.requests', { partitions: 8, replicationFactor: 1, minInsyncReplicas: undefined }],
      ['bonus.events', { partitions: 32, replicationFactor: 3, minInsyncReplicas: 2 }],
    ]);
    const differences = compareTopics(planned, actual);
    expect(differences.map((d) => [describeDifference(d), fixable(d)])).toEqual([
      ['bonus.events: 32 partitions, wants 16 (Kafka cannot remove partitions: change the setting instead)', false],
      ['wallet.requests: 8 partitions, wants 16', true],
      [
        'wallet.requests: replication factor 1, wants 3 (needs a partition reassignment: kafka-reassign-partitions)',
        false,
      ],
      ['wallet.requests: min.insync.replicas the broker default, wants 2', true],
      ['wallet.replies: missing (wants 64 partitions, replication factor 3, min.insync.replicas 2)', true],
    ]);
  });

  it('reads replicas and the topic’s own min.insync.replicas from kafkajs metadata and configs', async () => {
    const cluster = new Cluster();
    await cluster.createTopics({
      topics: [
        {
          topic: 't',
          numPartitions: 2,
          replicationFactor: 3,
          configEntries: [{ name: 'min.insync.replicas', value: '2' }],
        },
      ],
    });
    await cluster.createTopics({ topics: [{ topic: 'u', numPartitions: 1, replicationFactor: 1 }] });
    const { topics } = await cluster.fetchTopicMetadata({ topics: ['t', 'u'] });
    const states = topicStatesFrom(
      topics,
      await cluster.describeConfigs({ resources: [{ name: 't' }, { name: 'u' }] }),
    );
    expect(Object.fromEntries(states)).toEqual({
      t: { partitions: 2, replicationFactor: 3, minInsyncReplicas: 2 },
      u: { partitions: 1, replicationFactor: 1, minInsyncReplicas: undefined },
    });
  });
});

describe('npm run kafka:topics', () => {
  it('check: lists what differs and exits 1 without changing the cluster; 0 once it matches', async () => {
    const cluster = new Cluster();
    const planned = platformTopics(SETTINGS);
    const lines: string[] = [];
    expect(await runTopicsCommand('check', cluster, planned, (line) => lines.push(line))).toBe(1);
    expect(cluster.calls).toEqual([]);
    expect(lines.at(-1)).toBe(`${planned.length} difference(s) in ${planned.length} of ${planned.length} topics`);
    expect(await runTopicsCommand('create', cluster, planned, () => undefined)).toBe(0);
    const after: string[] = [];
    expect(await runTopicsCommand('check', cluster, planned, (line) => after.push(line))).toBe(0);
    expect(after).toEqual([`${planned.length} topics match the plan`]);
  });

  it('create: makes missing topics, grows partitions and sets min.insync.replicas keeping the topic’s other configs; what it cannot fix keeps the exit code 1', async () => {
    const cluster = new Cluster();
    const planned = platformTopics(SETTINGS);
    await runTopicsCommand('create', cluster, planned, () => undefined);
    cluster.topics.set('wallet.requests', {
      partitions: 4,
      replicas: 3,
      configs: new Map([['retention.ms', '604800000']]),
    });
    cluster.topics.set('bonus.events', {
      partitions: 16,
      replicas: 1,
      configs: new Map([['min.insync.replicas', '1']]),
    });
    cluster.calls.length = 0;
    const lines: string[] = [];
    const code = await runTopicsCommand('create', cluster, planned, (line) => lines.push(line), {
      growPartitions: true,
    });
    expect(code).toBe(1);
    expect(cluster.calls).toEqual([
      'partitions wallet.requests 16',
      'configs bonus.events min.insync.replicas=2',
      'configs wallet.requests retention.ms=604800000,min.insync.replicas=2',
    ]);
    expect(cluster.topics.get('wallet.requests')?.configs.get('retention.ms')).toBe('604800000');
    expect(lines.filter((line) => line.startsWith('differs'))).toEqual([
      'differs bonus.events: replication factor 1, wants 3 (needs a partition reassignment: kafka-reassign-partitions)',
    ]);
  });
});

describe('kafka:topics create and more partitions', () => {
  async function clusterWithFewPartitions() {
    const cluster = new Cluster();
    const planned = platformTopics(SETTINGS);
    await runTopicsCommand('create', cluster, planned, () => undefined);
    const topic = cluster.topics.get('wallet.requests');
    if (topic) topic.partitions = 4;
    cluster.calls.length = 0;
    return { cluster, planned };
  }

  it('adds no partition without --grow-partitions, and says why (keys move; producers restart after)', async () => {
    const { cluster, planned } = await clusterWithFewPartitions();
    const lines: string[] = [];
    expect(await runTopicsCommand('create', cluster, planned, (line) => lines.push(line))).toBe(1);
    expect(cluster.calls).toEqual([]);
    expect(lines).toContain(
      'not growing wallet.requests: more partitions move keys to other partitions; run with --grow-partitions once every consumer group has drained it, then restart every producer',
    );
  });

  it('with --grow-partitions, refuses while a consumer group lags on the topic, and grows once every group has drained it', async () => {
    const { cluster, planned } = await clusterWithFewPartitions();
    cluster.groups.set('wallet-dispatcher.requests', new Map([['wallet.requests', 7]]));
    cluster.groups.set('bonus-ledger', new Map());
    const lines: string[] = [];
    const grow = { growPartitions: true };
    expect(await runTopicsCommand('create', cluster, planned, (line) => lines.push(line), grow)).toBe(1);
    expect(cluster.calls).toEqual([]);
    expect(lines).toContain(
      'not growing wallet.requests: consumer groups have not drained it: wallet-dispatcher.requests (3 unconsumed)',
    );
    cluster.groups.set('wallet-dispatcher.requests', new Map([['wallet.requests', 10]]));
    expect(await runTopicsCommand('create', cluster, planned, () => undefined, grow)).toBe(0);
    expect(cluster.calls).toEqual(['partitions wallet.requests 16']);
  });
});

describe('KAFKA_AUTO_CREATE_TOPICS=false', () => {
  it('checks that a topic exists instead of creating it, and names the command that makes a missing one', async () => {
    const cluster = new Cluster();
    await cluster.createTopics({ topics: [{ topic: 'bonus.commands', numPartitions: 16, replicationFactor: 3 }] });
    cluster.calls.length = 0;
    const manager = new TopicManager(cluster as never, SETTINGS, false);
    await expect(manager.ensure(['bonus.commands'])).resolves.toBeUndefined();
    await expect(manager.ensure(['bonus.commands', 'wallet.requests'])).rejects.toThrow(
      /wallet.requests do not exist and KAFKA_AUTO_CREATE_TOPICS=false: run `npm run kafka:topics -- create`/,
    );
    expect(cluster.calls).toEqual([]);
    // Not remembered as known: once the topic is made, the next use passes.
    await cluster.createTopics({ topics: [{ topic: 'wallet.requests' }] });
    await expect(manager.ensure(['wallet.requests'])).resolves.toBeUndefined();
  });

  it('looks for a missing topic again while the kafka-topics Job may still be making it, then refuses', async () => {
    jest.useFakeTimers();
    try {
      const cluster = new Cluster();
      const manager = new TopicManager(cluster as never, SETTINGS, false, 45_000);
      const made = manager.ensure(['wallet.requests']);
      let settled = false;
      void made.then(() => (settled = true));
      await jest.advanceTimersByTimeAsync(10_000);
      expect(settled).toBe(false);
      await cluster.createTopics({ topics: [{ topic: 'wallet.requests' }] });
      await jest.advanceTimersByTimeAsync(1_000);
      await expect(made).resolves.toBeUndefined();

      const never = manager.ensure(['bonus.commands']);
      const refused = expect(never).rejects.toThrow(
        /bonus.commands do not exist \(looked for 45 s\) and KAFKA_AUTO_CREATE_TOPICS=false/,
      );
      await jest.advanceTimersByTimeAsync(45_000);
      await refused;
    } finally {
      jest.useRealTimers();
    }
  });
});
