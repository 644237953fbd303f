import { TopicPartitions } from '@reelstream/contracts';
import type { Db } from './database.js';

/**
 * Partition counts per topic: a topic whose count is fixed by the contracts (`TopicPartitions`) gets
 * that, any other the bus's default. The first client to use a topic records its count; every later
 * client, in any process, reads that record, so a key maps to the same partition everywhere.
 */
export class TopicRegistry {
  private readonly known = new Map<string, number>();
  private readonly register;
  private readonly lookup;

  constructor(
    db: Db,
    private readonly defaultPartitions: number,
  ) {
    this.register = db.prepare<[string, number, number]>(
      'INSERT INTO bus_topics (topic, partitions, created_at) VALUES (?, ?, ?) ON CONFLICT (topic) DO NOTHING',
    );
    this.lookup = db.prepare<[string], number>('SELECT partitions FROM bus_topics WHERE topic = ?').pluck();
  }

  /** The topic's partition count, creating the topic if needed. Call inside a write transaction. */
  partitionsOf(topic: string): number {
    const cached = this.known.get(topic);
    if (cached !== undefined) return cached;
    this.register.run(topic, TopicPartitions[topic] ?? this.defaultPartitions, Date.now());
    const partitions = this.lookup.get(topic);
    if (partitions === undefined) throw new Error(`topic ${topic} could not be registered`);
    this.known.set(topic, partitions);
    return partitions;
  }
}
