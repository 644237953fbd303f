import type { Admin } from 'kafkajs';

/** Where a partition without a committed offset starts when the group reads from `'latest'`. */
export interface InitialSeek {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * kafkajs resolves `'latest'` lazily, at the first fetch after joining, so a message published right
 * after `ready` could land before that point and never be seen. Instead, the end of every partition
 * that has no committed offset for the group is read now, before joining, and the consumer seeks there
 * once it owns the partition: "latest" then means "published after subscribe was called".
 * `everyPartition` seeks committed partitions too (a reply listener never replays an old backlog).
 */
export async function latestSeeksFor(
  admin: Admin,
  groupId: string,
  topics: readonly string[],
  everyPartition = false,
): Promise<InitialSeek[]> {
  const seeks: InitialSeek[] = [];
  for (const topic of topics) {
    let uncommitted: Set<number> | undefined;
    if (!everyPartition) {
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      uncommitted = new Set((committed?.partitions ?? []).filter((p) => Number(p.offset) < 0).map((p) => p.partition));
      if (uncommitted.size === 0) continue;
    }
    for (const { partition, high } of await admin.fetchTopicOffsets(topic)) {
      if (!uncommitted || uncommitted.has(partition)) seeks.push({ topic, partition, offset: high });
    }
  }
  return seeks;
}

/** The seeks that apply to the partitions a join assigned to this member (`{ topic: [partitions] }`). */
export function seeksForAssignment(
  seeks: readonly InitialSeek[],
  assignment: Readonly<Record<string, readonly number[]>>,
): InitialSeek[] {
  return seeks.filter((seek) => assignment[seek.topic]?.includes(seek.partition) ?? false);
}
