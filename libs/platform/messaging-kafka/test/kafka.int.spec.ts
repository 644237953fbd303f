/**
 * The MessageBus contract and the cluster contract against a real Kafka, when `KAFKA_BROKERS` names
 * one (`.ci/run` starts it with `npm run infra:kafka -- start`; `npm run test:infra` from
 * docker/compose.yml). The tests below them need no broker and always run.
 */
import { execSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { describeMessageBusClusterContract, describeMessageBusContract } from '@reelstream/testing';
import {
  defaultTopicSettings,
  kafkaSettings,
  openKafkaMessageBus,
  parseBrokerList,
  parseKafkaUrl,
  topicsMain,
} from '../src/index.js';

const brokers = process.env['KAFKA_BROKERS'];

/** Runs a shell command from the environment (e.g. `docker compose pause kafka`). */
const shell = (command: string) => async () => void execSync(command, { stdio: 'inherit' });

/** Why a contract case cannot pass on this adapter yet (see `KnownBusFault`). */
const KNOWN_FAULTS = {
  'fetch-held-by-slow-key':
    "kafkajs's fetcher waits for every batch of a fetch before fetching that broker again, and the adapter handles a slow key inside its batch",
};

if (brokers) {
  const list = parseBrokerList(brokers);
  // A killed member's partitions move after the session timeout: 3 s instead of 10 s keeps the crash
  // cases (dozens of SIGKILLs) short. Worker processes inherit it.
  process.env['KAFKA_SESSION_TIMEOUT_MS'] ??= '3000';
  process.stdout.write(`[contract] MessageBus contract and cluster contract run against Kafka at ${brokers}.\n`);
  describeMessageBusContract(
    async () => ({
      adapter: 'kafka',
      url: `kafka://${brokers}`,
      open: (options) => openKafkaMessageBus(list, options ?? {}),
      // Every case uses fresh topics and groups; the broker itself belongs to whoever started it.
      dispose: async () => undefined,
      knownFaults: KNOWN_FAULTS,
    }),
    'kafka',
  );
  describeMessageBusClusterContract(async () => {
    const admin = new Kafka({ brokers: list, logLevel: logLevel.WARN }).admin();
    await admin.connect();
    const pause = process.env['KAFKA_PAUSE_COMMAND'];
    const resume = process.env['KAFKA_RESUME_COMMAND'];
    return {
      adapter: 'kafka',
      url: `kafka://${brokers}`,
      open: (options) => openKafkaMessageBus(list, options ?? {}),
      async topicReplication(topic) {
        const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
        const { resources } = await admin.describeConfigs({
          includeSynonyms: false,
          resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['min.insync.replicas'] }],
        });
        return {
          replicationFactor: topics[0]?.partitions[0]?.replicas.length ?? 0,
          minInsyncReplicas: Number(resources[0]?.configEntries[0]?.configValue ?? 0),
        };
      },
      async expectedReplication() {
        const { brokers: cluster } = await admin.describeCluster();
        const { replicationFactor, minInsyncReplicas } = defaultTopicSettings(cluster.length, kafkaSettings({}).topics);
        return { replicationFactor, minInsyncReplicas };
      },
      ...(pause && resume ? { pauseBrokers: shell(pause), resumeBrokers: shell(resume) } : {}),
      dispose: () => admin.disconnect(),
    };
  }, 'kafka');
  describe('kafka:topics against the real cluster', () => {
    it('refuses to create topics with fewer brokers answering than the replication factor it is told (a broker down)', async () => {
      const { brokers: cluster } = await (async () => {
        const admin = new Kafka({ brokers: list, logLevel: logLevel.NOTHING }).admin();
        await admin.connect();
        try {
          return await admin.describeCluster();
        } finally {
          await admin.disconnect();
        }
      })();
      const lines: string[] = [];
      await expect(
        topicsMain(
          ['create'],
          {
            KAFKA_BROKERS: brokers,
            KAFKA_REPLICATION_FACTOR: String(cluster.length + 1),
            KAFKA_MIN_INSYNC_REPLICAS: '2',
          },
          (line) => lines.push(line),
        ),
      ).rejects.toThrow(new RegExp(`needs at least that many brokers; the cluster has ${cluster.length}`));
      expect(lines).toEqual([]);
    });
  });
} else {
  process.stdout.write(
    '[contract] MessageBus contract suite NOT run against Kafka: KAFKA_BROKERS is not set (it ran against the embedded SQLite adapter).\n' +
      '[contract] MessageBus CLUSTER contract (rebalance during a long handler, unwritable DLQ, hung key, paused broker, poison message ' +
      'across process deaths, restarted requester, topic replication) NOT run: KAFKA_BROKERS is not set. No Kafka ran here.\n',
  );
}

describe('openKafkaMessageBus before it connects', () => {
  it('refuses an empty broker list', async () => {
    await expect(openKafkaMessageBus([])).rejects.toThrow(/at least one broker/);
  });

  it('refuses topic settings that no broker would accept', async () => {
    await expect(openKafkaMessageBus(['localhost:9092'], { partitions: 0 })).rejects.toThrow(
      /partitions must be a positive integer/,
    );
    await expect(openKafkaMessageBus(['localhost:9092'], { replicationFactor: 1.5 })).rejects.toThrow(
      /replicationFactor/,
    );
    await expect(openKafkaMessageBus(['localhost:9092'], { sessionTimeoutMs: -1 })).rejects.toThrow(/sessionTimeoutMs/);
    await expect(openKafkaMessageBus(['localhost:9092'], { minInsyncReplicas: 0 })).rejects.toThrow(
      /minInsyncReplicas/,
    );
  });

  it('reads the BUS_URL the platform passes and the KAFKA_BROKERS the tests pass the same way', () => {
    expect(parseKafkaUrl('kafka://localhost:9092')).toEqual(parseBrokerList('localhost:9092'));
  });
});
