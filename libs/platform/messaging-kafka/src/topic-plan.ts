/**
 * The platform's Kafka topics as they should be, and how a cluster differs from that.
 * Pure: the `topics` command (topics-cli.ts) reads the cluster and applies what can be
 * applied. In production topics are made by that command (a Kubernetes Job before the apps start),
 * not by the first publish: `KAFKA_AUTO_CREATE_TOPICS=false`.
 */
import { z } from 'zod';
import { ReelstreamError, TopicPartitions, Topics } from '@reelstream/contracts';
import { defaultDeadLetterTopic } from './dead-letter.js';
import type { TopicSettings } from './topics.js';

/** Topics consumed with dead-lettering: each has its `.dlq` (the retry topics' messages go back to where they came from). */
const CONSUMED = [
  Topics.bonusCommands,
  Topics.walletRequests,
  Topics.walletCancels,
  Topics.walletRetry1s,
  Topics.walletRetry5s,
  Topics.walletRetry30s,
  Topics.bonusWebhooks,
] as const;

export interface PlannedTopic extends TopicSettings {
  topic: string;
}

/** What the cluster has for a topic; `minInsyncReplicas` undefined when the broker's default applies. */
export interface TopicState {
  partitions: number;
  replicationFactor: number;
  minInsyncReplicas: number | undefined;
}

export type TopicDifference =
  | { topic: string; kind: 'missing'; want: PlannedTopic }
  | { topic: string; kind: 'partitions'; want: number; have: number }
  | { topic: string; kind: 'replicationFactor'; want: number; have: number }
  | { topic: string; kind: 'minInsyncReplicas'; want: number; have: number | undefined };

class InvalidTopicSettingsError extends ReelstreamError {
  override readonly name = 'InvalidTopicSettingsError';
  constructor(reason: string) {
    super('CONFIGURATION_INVALID', `KAFKA_TOPIC_SETTINGS: ${reason}`, { retriable: false });
  }
}

const overrideSchema = z.record(
  z.string(),
  z
    .object({
      partitions: z.number().int().min(1).max(10_000).optional(),
      replicationFactor: z.number().int().min(1).max(16).optional(),
      minInsyncReplicas: z.number().int().min(1).max(16).optional(),
    })
    .strict(),
);

/**
 * Every topic the platform uses, with the bus-wide settings, the partition counts the contracts fix
 * (`TopicPartitions`) and per-topic overrides applied.
 */
export function platformTopics(settings: TopicSettings, overrides: Record<string, Partial<TopicSettings>> = {}) {
  const names = [...Object.values(Topics), ...CONSUMED.map(defaultDeadLetterTopic)];
  const unknown = Object.keys(overrides).filter((topic) => !names.includes(topic));
  if (unknown.length > 0) throw new InvalidTopicSettingsError(`no such topic of the platform: ${unknown.join(', ')}`);
  return names.map((topic): PlannedTopic => {
    const fixed = TopicPartitions[topic];
    const planned = { topic, ...settings, ...(fixed === undefined ? {} : { partitions: fixed }), ...overrides[topic] };
    if (planned.minInsyncReplicas > planned.replicationFactor)
      throw new InvalidTopicSettingsError(
        `${topic}: minInsyncReplicas ${planned.minInsyncReplicas} exceeds replicationFactor ${planned.replicationFactor}`,
      );
    return planned;
  });
}

/** `KAFKA_TOPIC_SETTINGS`, e.g. `{"wallet.requests":{"partitions":32}}`; `{}` when unset. */
export function topicOverridesFrom(env: NodeJS.ProcessEnv): Record<string, Partial<TopicSettings>> {
  const raw = env['KAFKA_TOPIC_SETTINGS'];
  if (raw === undefined || raw.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new InvalidTopicSettingsError(`not JSON: ${JSON.stringify(raw.slice(0, 80))}`);
  }
  const parsed = overrideSchema.safeParse(json);
  if (!parsed.success)
    throw new InvalidTopicSettingsError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data as Record<string, Partial<TopicSettings>>;
}

/** How the cluster differs from the plan, topic by topic, in the plan's order. */
export function compareTopics(
  planned: readonly PlannedTopic[],
  actual: ReadonlyMap<string, TopicState>,
): TopicDifference[] {
  const differences: TopicDifference[] = [];
  for (const want of planned) {
    const have = actual.get(want.topic);
    if (!have) {
      differences.push({ topic: want.topic, kind: 'missing', want });
      continue;
    }
    if (have.partitions !== want.partitions)
      differences.push({ topic: want.topic, kind: 'partitions', want: want.partitions, have: have.partitions });
    if (have.replicationFactor !== want.replicationFactor)
      differences.push({
        topic: want.topic,
        kind: 'replicationFactor',
        want: want.replicationFactor,
        have: have.replicationFactor,
      });
    if (have.minInsyncReplicas !== want.minInsyncReplicas)
      differences.push({
        topic: want.topic,
        kind: 'minInsyncReplicas',
        want: want.minInsyncReplicas,
        have: have.minInsyncReplicas,
      });
  }
  return differences;
}

/**
 * Whether `topics create` can fix a difference: a missing topic is created, partitions only grow
 * (Kafka cannot remove them; growing moves keys to other partitions, so it is the operator's call to
 * make while producers are stopped), min.insync.replicas is a topic config; the replication factor
 * takes a partition reassignment, which this command does not do.
 */
export function fixable(difference: TopicDifference): boolean {
  if (difference.kind === 'partitions') return difference.want > difference.have;
  return difference.kind !== 'replicationFactor';
}

export function describeDifference(difference: TopicDifference): string {
  switch (difference.kind) {
    case 'missing':
      return `${difference.topic}: missing (wants ${difference.want.partitions} partitions, replication factor ${difference.want.replicationFactor}, min.insync.replicas ${difference.want.minInsyncReplicas})`;
    case 'partitions':
      return `${difference.topic}: ${difference.have} partitions, wants ${difference.want}${
        difference.want < difference.have ? ' (Kafka cannot remove partitions: change the setting instead)' : ''
      }`;
    case 'replicationFactor':
      return `${difference.topic}: replication factor ${difference.have}, wants ${difference.want} (needs a partition reassignment: kafka-reassign-partitions)`;
    case 'minInsyncReplicas':
      return `${difference.topic}: min.insync.replicas ${difference.have ?? 'the broker default'}, wants ${difference.want}`;
  }
}
