import type { Admin } from 'kafkajs';
import { ReelstreamError, TopicPartitions } from '@reelstream/contracts';
import { fromKafkajs, isPassingKafkaFailure, isRetriableKafkaError } from './kafka-errors.js';

export interface TopicSettings {
  partitions: number;
  replicationFactor: number;
  /** With `acks: -1`, a write fails rather than succeed on fewer replicas than this. */
  minInsyncReplicas: number;
}

const DEFAULT_PARTITIONS = 16;
/** Replicas of a created topic: three, or every broker of a smaller cluster. */
const DEFAULT_MAX_REPLICATION_FACTOR = 3;
/** In-sync replicas a write needs: two, or one on a single broker (which could never have two). */
const DEFAULT_MIN_INSYNC_REPLICAS = 2;

/** The settings for a cluster of `brokers` brokers, where nothing was configured. */
export function defaultTopicSettings(brokers: number, configured: Partial<TopicSettings> = {}): TopicSettings {
  const replicationFactor =
    configured.replicationFactor ?? Math.max(1, Math.min(DEFAULT_MAX_REPLICATION_FACTOR, brokers));
  const minInsyncReplicas = configured.minInsyncReplicas ?? Math.min(DEFAULT_MIN_INSYNC_REPLICAS, replicationFactor);
  if (minInsyncReplicas > replicationFactor) {
    throw new RangeError(
      `minInsyncReplicas (${minInsyncReplicas}) exceeds replicationFactor (${replicationFactor}): every write would fail`,
    );
  }
  if (replicationFactor > brokers) {
    throw new RangeError(
      `replicationFactor ${replicationFactor} needs at least that many brokers; the cluster has ${brokers}`,
    );
  }
  return { partitions: configured.partitions ?? DEFAULT_PARTITIONS, replicationFactor, minInsyncReplicas };
}

const LEADER_WAIT_MS = 10_000;
const MISSING_TOPIC_POLL_MS = 1_000;

/**
 * How long a process with `KAFKA_AUTO_CREATE_TOPICS=false` looks for a missing topic before it refuses to
 * start: the kafka-topics Job applied with it makes the topics meanwhile. Under the apps' startup probe
 * (60 s), so a process still starting is not restarted for waiting.
 */
export const MISSING_TOPIC_WAIT_MS = 45_000;

/**
 * Creates topics on first use with the bus's partition count (or the one the contracts fix for the topic, `TopicPartitions`), replication factor and
 * `min.insync.replicas` (a broker's auto-creation would give them its own defaults, typically one
 * replica). "Already exists" is success: another process, or an earlier run, created it. A failed
 * creation is forgotten so the next use tries again.
 */
export class TopicManager {
  private readonly known = new Map<string, Promise<void>>();

  /**
   * `autoCreate` false (`KAFKA_AUTO_CREATE_TOPICS=false`, production): a topic is only checked. A missing
   * one is looked for again every second for `missingTopicWaitMs` (the kafka-topics Job of a fresh install
   * may still be making it), then it is a configuration error naming the command that makes it
   * (`npm run kafka:topics`).
   */
  constructor(
    private readonly admin: Pick<Admin, 'createTopics' | 'fetchTopicMetadata' | 'fetchTopicOffsets' | 'listTopics'>,
    readonly settings: TopicSettings,
    private readonly autoCreate = true,
    private readonly missingTopicWaitMs = 0,
  ) {}

  async ensure(topics: readonly string[]): Promise<void> {
    const missing = [...new Set(topics)].filter((topic) => !this.known.has(topic));
    if (missing.length > 0) {
      const creation = (this.autoCreate ? this.create(missing) : this.check(missing)).then(() => undefined);
      for (const topic of missing) {
        const entry = creation.catch((error: unknown) => {
          this.known.delete(topic);
          throw error;
        });
        this.known.set(topic, entry);
      }
    }
    await Promise.all(topics.map((topic) => this.known.get(topic)));
  }

  private async check(topics: readonly string[]): Promise<void> {
    const deadline = Date.now() + this.missingTopicWaitMs;
    for (;;) {
      const existing = new Set(await this.admin.listTopics());
      const absent = topics.filter((topic) => !existing.has(topic));
      if (absent.length === 0) return;
      const left = deadline - Date.now();
      if (left <= 0) {
        const waited = this.missingTopicWaitMs > 0 ? ` (looked for ${this.missingTopicWaitMs / 1_000} s)` : '';
        throw new ReelstreamError(
          'CONFIGURATION_INVALID',
          `Kafka topic(s) ${absent.join(', ')} do not exist${waited} and KAFKA_AUTO_CREATE_TOPICS=false: run \`npm run kafka:topics -- create\``,
          { retriable: false },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(MISSING_TOPIC_POLL_MS, left)));
    }
  }

  private async create(missing: readonly string[]): Promise<void> {
    const deadline = Date.now() + LEADER_WAIT_MS;
    for (;;) {
      try {
        await this.admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: TopicPartitions[topic] ?? this.settings.partitions,
            replicationFactor: this.settings.replicationFactor,
            configEntries: [{ name: 'min.insync.replicas', value: String(this.settings.minInsyncReplicas) }],
          })),
        });
        break;
      } catch (error) {
        // kafkajs waits for leaders on LEADER_NOT_AVAILABLE only; a broker whose metadata has not
        // caught up with the controller answers UNKNOWN_TOPIC_OR_PARTITION: ask again ("already exists").
        if (!isRetriableKafkaError(error) || Date.now() > deadline) throw fromKafkajs(error);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await Promise.all(missing.map((topic) => this.leadersServe(topic)));
  }

  /**
   * Waits until every partition's leader answers for it. kafkajs' `waitForLeaders` reads the metadata
   * only, and skips even that when another client created the topic a moment before ("already
   * exists"); a KRaft broker names itself leader in its metadata before it serves the partition, so a
   * consumer's first ListOffsets there is refused with NOT_LEADER_OR_FOLLOWER.
   */
  private async leadersServe(topic: string): Promise<void> {
    const deadline = Date.now() + LEADER_WAIT_MS;
    for (;;) {
      try {
        await this.admin.fetchTopicOffsets(topic);
        return;
      } catch (error) {
        if (!isPassingKafkaFailure(error) || Date.now() > deadline) throw fromKafkajs(error);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** Partitions per topic as the cluster has them (a topic created elsewhere may have another count). */
  async partitionCount(topics: readonly string[]): Promise<number> {
    const { topics: metadata } = await this.admin.fetchTopicMetadata({ topics: [...topics] });
    return metadata.reduce((sum, topic) => sum + topic.partitions.length, 0);
  }
}
