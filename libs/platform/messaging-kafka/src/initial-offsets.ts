import type { Admin } from 'kafkajs';
import { isPassingKafkaFailure } from './kafka-errors.js';
import { abortableSleep } from './keep-alive.js';

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
  options: { everyPartition?: boolean; stopping: AbortSignal },
): Promise<InitialSeek[]> {
  const seeks: InitialSeek[] = [];
  for (const topic of topics) {
    let uncommitted: Set<number> | undefined;
    if (options.everyPartition !== true) {
      const [committed] = await retryingRetriable(
        () => admin.fetchOffsets({ groupId, topics: [topic] }),
        options.stopping,
      );
      uncommitted = new Set((committed?.partitions ?? []).filter((p) => Number(p.offset) < 0).map((p) => p.partition));
      if (uncommitted.size === 0) continue;
    }
    const ends = await retryingRetriable(() => admin.fetchTopicOffsets(topic), options.stopping);
    for (const { partition, high } of ends) {
      if (!uncommitted || uncommitted.has(partition)) seeks.push({ topic, partition, offset: high });
    }
  }
  return seeks;
}

/**
 * Waits between attempts of an offset read that failed on an error kafkajs marks retriable: about half
 * a minute in all, longer than a restarted broker takes to load the group coordinators it leads
 * (COORDINATOR_LOAD_IN_PROGRESS) or to hand a partition's leadership back (NOT_LEADER_FOR_PARTITION).
 * kafkajs's admin asks the coordinator once for committed offsets, with no retry of its own.
 */
const OFFSET_READ_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000, 4_000, 4_000, 4_000, 4_000, 4_000];

/**
 * `work`, tried again after each delay while it fails retriably; a non-retriable error, the last
 * attempt's error, or any error once `stopping` is aborted is thrown as it is.
 */
export async function retryingRetriable<T>(
  work: () => Promise<T>,
  stopping: AbortSignal,
  delaysMs: readonly number[] = OFFSET_READ_DELAYS_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const delay = delaysMs[attempt];
      if (delay === undefined || stopping.aborted || !isPassingKafkaFailure(error)) throw error;
      await abortableSleep(delay, stopping);
    }
  }
}

/** The seeks that apply to the partitions a join assigned to this member (`{ topic: [partitions] }`). */
export function seeksForAssignment(
  seeks: readonly InitialSeek[],
  assignment: Readonly<Record<string, readonly number[]>>,
): InitialSeek[] {
  return seeks.filter((seek) => assignment[seek.topic]?.includes(seek.partition) ?? false);
}
