/**
 * `npm run kafka:topics -- check|create [--grow-partitions]`: compares the cluster's topics with the
 * platform's plan (topic-plan.ts) and says what differs; `create` also makes what it can — missing
 * topics, min.insync.replicas, and more partitions only with `--grow-partitions` and once no consumer
 * group lags on the topic — and exits non-zero while anything differs (a replication factor
 * takes a reassignment; partitions cannot shrink). Meant as a Kubernetes Job before the apps start,
 * with `KAFKA_AUTO_CREATE_TOPICS=false` in the apps.
 */
import kafkajs, { Kafka, logLevel, type Admin, type DescribeConfigResponse, type ITopicMetadata } from 'kafkajs';
import { parseBrokerList, parseKafkaUrl } from './kafka-url.js';
import { kafkaSettings } from './open.js';
import {
  compareTopics,
  platformTopics,
  topicOverridesFrom,
  describeDifference,
  fixable,
  type PlannedTopic,
  type TopicDifference,
  type TopicState,
} from './topic-plan.js';
import { defaultTopicSettings } from './topics.js';

export type TopicAdmin = Pick<
  Admin,
  | 'listTopics'
  | 'fetchTopicMetadata'
  | 'describeConfigs'
  | 'createTopics'
  | 'createPartitions'
  | 'alterConfigs'
  | 'listGroups'
  | 'fetchOffsets'
  | 'fetchTopicOffsets'
>;

/**
 * Groups that have not consumed everything of `topic` yet, with how much is left. Growing a topic's
 * partitions moves keys to other partitions: a player's next message could be handled before the
 * ones still waiting in the old partition, so it is only done once every group has drained.
 */
async function laggingGroups(admin: TopicAdmin, topic: string): Promise<string[]> {
  const ends = new Map((await admin.fetchTopicOffsets(topic)).map(({ partition, high }) => [partition, BigInt(high)]));
  const lagging: string[] = [];
  for (const { groupId } of (await admin.listGroups()).groups) {
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    let lag = 0n;
    for (const { partition, offset } of committed?.partitions ?? []) {
      if (BigInt(offset) < 0n) continue;
      const left = (ends.get(partition) ?? 0n) - BigInt(offset);
      if (left > 0n) lag += left;
    }
    if (lag > 0n) lagging.push(`${groupId} (${lag} unconsumed)`);
  }
  return lagging;
}

export interface TopicsCommandOptions {
  /** `--grow-partitions`: add the planned partitions, once no consumer group lags on the topic. */
  growPartitions?: boolean;
}

const MIN_INSYNC = 'min.insync.replicas';
// Not found by node's named-export detection of the CommonJS kafkajs (Kafka and logLevel are): read from the default export.
const { ConfigResourceTypes, ConfigSource } = kafkajs;

/** The cluster's view of existing topics, from kafkajs' metadata and topic configs. */
export function topicStatesFrom(
  metadata: readonly ITopicMetadata[],
  configs: DescribeConfigResponse,
): Map<string, TopicState> {
  const minInsync = new Map<string, number>();
  for (const resource of configs.resources) {
    const entry = resource.configEntries.find(
      (config) => config.configName === MIN_INSYNC && config.configSource === ConfigSource.TOPIC_CONFIG,
    );
    if (entry) minInsync.set(resource.resourceName, Number(entry.configValue));
  }
  return new Map(
    metadata.map((topic) => [
      topic.name,
      {
        partitions: topic.partitions.length,
        replicationFactor: Math.min(...topic.partitions.map((partition) => partition.replicas.length)),
        minInsyncReplicas: minInsync.get(topic.name),
      },
    ]),
  );
}

async function readCluster(admin: TopicAdmin, planned: readonly PlannedTopic[]) {
  const existing = new Set(await admin.listTopics());
  const names = planned.map(({ topic }) => topic).filter((topic) => existing.has(topic));
  if (names.length === 0) return { states: new Map<string, TopicState>(), configs: undefined };
  const { topics } = await admin.fetchTopicMetadata({ topics: names });
  const configs = await admin.describeConfigs({
    includeSynonyms: false,
    resources: names.map((name) => ({ type: ConfigResourceTypes.TOPIC, name })),
  });
  return { states: topicStatesFrom(topics, configs), configs };
}

/** Applies the fixable differences; an existing topic's other own configs are kept (AlterConfigs replaces them all). */
async function apply(
  admin: TopicAdmin,
  differences: readonly TopicDifference[],
  configs: DescribeConfigResponse | undefined,
  growPartitions: boolean,
  print: (line: string) => void,
) {
  const missing = differences.flatMap((d) => (d.kind === 'missing' ? [d.want] : []));
  if (missing.length > 0)
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((want) => ({
        topic: want.topic,
        numPartitions: want.partitions,
        replicationFactor: want.replicationFactor,
        configEntries: [{ name: MIN_INSYNC, value: String(want.minInsyncReplicas) }],
      })),
    });
  const grow: { topic: string; want: number }[] = [];
  for (const d of differences) {
    if (d.kind !== 'partitions' || !fixable(d)) continue;
    if (!growPartitions) {
      print(
        `not growing ${d.topic}: more partitions move keys to other partitions; run with --grow-partitions once every consumer group has drained it, then restart every producer`,
      );
      continue;
    }
    const lagging = await laggingGroups(admin, d.topic);
    if (lagging.length > 0) {
      print(`not growing ${d.topic}: consumer groups have not drained it: ${lagging.join(', ')}`);
      continue;
    }
    grow.push({ topic: d.topic, want: d.want });
  }
  if (grow.length > 0)
    await admin.createPartitions({ topicPartitions: grow.map((d) => ({ topic: d.topic, count: d.want })) });
  const insync = differences.flatMap((d) => (d.kind === 'minInsyncReplicas' ? [d] : []));
  if (insync.length > 0)
    await admin.alterConfigs({
      validateOnly: false,
      resources: insync.map((d) => {
        const own = (configs?.resources.find((r) => r.resourceName === d.topic)?.configEntries ?? [])
          .filter((c) => c.configSource === ConfigSource.TOPIC_CONFIG && c.configName !== MIN_INSYNC && !c.isSensitive)
          .map((c) => ({ name: c.configName, value: c.configValue }));
        return {
          type: ConfigResourceTypes.TOPIC,
          name: d.topic,
          configEntries: [...own, { name: MIN_INSYNC, value: String(d.want) }],
        };
      }),
    });
}

/** Runs `check` or `create`; returns the exit code (0: the cluster matches the plan). */
export async function runTopicsCommand(
  mode: 'check' | 'create',
  admin: TopicAdmin,
  planned: readonly PlannedTopic[],
  print: (line: string) => void,
  options: TopicsCommandOptions = {},
): Promise<number> {
  let { states, configs } = await readCluster(admin, planned);
  let differences = compareTopics(planned, states);
  if (mode === 'create' && differences.some(fixable)) {
    for (const difference of differences.filter(fixable)) print(`fixing  ${describeDifference(difference)}`);
    await apply(admin, differences.filter(fixable), configs, options.growPartitions === true, print);
    ({ states, configs } = await readCluster(admin, planned));
    differences = compareTopics(planned, states);
  }
  for (const difference of differences) print(`differs ${describeDifference(difference)}`);
  print(
    differences.length === 0
      ? `${planned.length} topics match the plan`
      : `${differences.length} difference(s) in ${new Set(differences.map((d) => d.topic)).size} of ${planned.length} topics`,
  );
  return differences.length === 0 ? 0 : 1;
}

/**
 * The command line: `check` (default) or `create`, brokers from `BUS_URL` (`kafka://…`) or
 * `KAFKA_BROKERS`, settings and TLS/SASL from the same variables as the bus.
 */
export async function topicsMain(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<number> {
  const mode = argv[0] ?? 'check';
  const flags = argv.slice(1);
  if ((mode !== 'check' && mode !== 'create') || flags.some((flag) => flag !== '--grow-partitions')) {
    print('usage: kafka:topics [check|create [--grow-partitions]]');
    return 2;
  }
  const busUrl = env['BUS_URL'];
  const brokers = busUrl?.trim().toLowerCase().startsWith('kafka://')
    ? parseKafkaUrl(busUrl)
    : parseBrokerList(env['KAFKA_BROKERS'] ?? '');
  const settings = kafkaSettings({}, env);
  const kafka = new Kafka({ clientId: 'reelstream-topics', brokers, logLevel: logLevel.WARN, ...settings.security });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { brokers: cluster } = await admin.describeCluster();
    const planned = platformTopics(defaultTopicSettings(cluster.length, settings.topics), topicOverridesFrom(env));
    return await runTopicsCommand(mode, admin, planned, print, {
      growPartitions: flags.includes('--grow-partitions'),
    });
  } finally {
    await admin.disconnect();
  }
}
