import type { Admin } from 'kafkajs';

export interface TopicSettings {
  partitions: number;
  replicationFactor: number;
}

export const DEFAULT_PARTITIONS = 16;
export const DEFAULT_REPLICATION_FACTOR = 1;

/**
 * Creates topics on first use with the bus's partition count and replication factor (a broker's
 * auto-creation would give them its own defaults). "Already exists" is success: another process, or an
 * earlier run, created it. A failed creation is forgotten so the next use tries again.
 */
export class TopicManager {
  private readonly known = new Map<string, Promise<void>>();

  constructor(
    private readonly admin: Admin,
    private readonly settings: TopicSettings,
  ) {}

  async ensure(topics: readonly string[]): Promise<void> {
    const missing = [...new Set(topics)].filter((topic) => !this.known.has(topic));
    if (missing.length > 0) {
      const creation = this.admin
        .createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: this.settings.partitions,
            replicationFactor: this.settings.replicationFactor,
          })),
        })
        .then(() => undefined);
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

  /** Partitions per topic as the cluster has them (a topic created elsewhere may have another count). */
  async partitionCount(topics: readonly string[]): Promise<number> {
    const { topics: metadata } = await this.admin.fetchTopicMetadata({ topics: [...topics] });
    return metadata.reduce((sum, topic) => sum + topic.partitions.length, 0);
  }
}
