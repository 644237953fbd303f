import type { Admin } from 'kafkajs';
import type { ConsumerLag } from '@reelstream/platform-ports';

/** One partition's end offsets as `admin.fetchTopicOffsets` gives them (decimal strings). */
interface TopicPartitionOffsets {
  partition: number;
  high: string;
  low: string;
}

/** One partition's committed offset as `admin.fetchOffsets` gives it (`-1`: nothing committed). */
interface CommittedOffset {
  partition: number;
  offset: string;
}

/**
 * Lag per partition: the high watermark minus the group's committed offset (the next offset it
 * will read). Without a commit the group starts at the earliest retained message (the bus's
 * default), so the lag is everything retained: high − low. Never negative (a commit can briefly
 * look ahead of a stale high watermark).
 */
export function lagFromOffsets(
  groupId: string,
  topic: string,
  ends: readonly TopicPartitionOffsets[],
  committed: readonly CommittedOffset[],
): ConsumerLag[] {
  const committedAt = new Map(committed.map((entry) => [entry.partition, BigInt(entry.offset)]));
  return [...ends]
    .sort((a, b) => a.partition - b.partition)
    .map(({ partition, high, low }) => {
      const next = committedAt.get(partition);
      const from = next === undefined || next < 0n ? BigInt(low) : next;
      const lag = BigInt(high) - from;
      return { groupId, topic, partition, lag: lag > 0n ? Number(lag) : 0 };
    });
}

/** The lag of `groupId` on every partition of `topics`, read with the admin client (two requests per topic). */
export async function kafkaConsumerLag(
  admin: Pick<Admin, 'fetchOffsets' | 'fetchTopicOffsets'>,
  groupId: string,
  topics: readonly string[],
): Promise<ConsumerLag[]> {
  const lags: ConsumerLag[] = [];
  for (const topic of topics) {
    const [ends, committed] = await Promise.all([
      admin.fetchTopicOffsets(topic),
      admin.fetchOffsets({ groupId, topics: [topic] }),
    ]);
    const partitions = committed.find((entry) => entry.topic === topic)?.partitions ?? [];
    lags.push(...lagFromOffsets(groupId, topic, ends, partitions));
  }
  return lags;
}
