import type { ConsumerLag } from '@reelstream/platform-ports';
import type { Db } from './database.js';

/**
 * Per partition of each topic: the messages after the group's committed position (all of them when
 * the group has committed nothing there). Offsets are committed every `commitIntervalMs`, so a
 * message being handled, or handled a moment ago, still counts.
 */
export function consumerLagOf(db: Db, groupId: string, topics: readonly string[]): ConsumerLag[] {
  const partitionsOf = db.prepare<[string], number>('SELECT partitions FROM bus_topics WHERE topic = ?').pluck();
  const pending = db
    .prepare<[string, number, string, string, number], number>(
      `SELECT COUNT(*) FROM bus_messages
        WHERE topic = ? AND partition = ?
          AND id > COALESCE((SELECT position FROM bus_offsets WHERE group_id = ? AND topic = ? AND partition = ?), 0)`,
    )
    .pluck();
  const lags: ConsumerLag[] = [];
  for (const topic of topics) {
    const partitions = partitionsOf.get(topic) ?? 0;
    for (let partition = 0; partition < partitions; partition++)
      lags.push({ groupId, topic, partition, lag: pending.get(topic, partition, groupId, topic, partition) ?? 0 });
  }
  return lags;
}
