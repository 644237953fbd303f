import { namedPartitionProblem, type OutgoingMessage } from '@reelstream/platform-ports';
import { z } from 'zod';
import type { Db } from './database.js';
import { partitionFor } from './partitioner.js';
import type { TopicRegistry } from './topics.js';

const topicSchema = z.string().min(1).max(249);
const outgoingSchema = z.object({
  key: z.string(),
  value: z.unknown(),
  headers: z.record(z.string(), z.string()).optional(),
  partition: z.number().optional(),
});

/** A message checked and serialised before it joins a batch, so one bad message fails only its own publish. */
export interface PreparedMessage {
  key: string;
  value: string;
  headers: string;
  /** A partition named by the publisher (a reply's); otherwise the key's. */
  partition?: number;
}

/** `partitionsOf` is asked only for a topic some message names a partition of. */
export function prepareMessages(
  topic: string,
  messages: OutgoingMessage | readonly OutgoingMessage[],
  partitionsOf: (topic: string) => number,
): PreparedMessage[] {
  topicSchema.parse(topic);
  const list: readonly OutgoingMessage[] = Array.isArray(messages) ? messages : [messages as OutgoingMessage];
  return list.map((message) => {
    const { key, value, headers, partition } = outgoingSchema.parse(message);
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`message ${key} on ${topic}: value is not JSON-serialisable`);
    const prepared = { key, value: json, headers: JSON.stringify(headers ?? {}) };
    if (partition === undefined) return prepared;
    const problem =
      namedPartitionProblem(topic, key, partition) ?? namedPartitionProblem(topic, key, partition, partitionsOf(topic));
    if (problem) throw new RangeError(problem);
    return { ...prepared, partition };
  });
}

/** What one transaction added to the log: the partitions it touched, and its ids (contiguous: one writer at a time). */
export class AppendedRows {
  readonly partitions = new Map<string, Set<number>>();
  firstId = Number.POSITIVE_INFINITY;
  lastId = 0;

  add(topic: string, partition: number, id: number): void {
    let partitions = this.partitions.get(topic);
    if (!partitions) this.partitions.set(topic, (partitions = new Set()));
    partitions.add(partition);
    this.firstId = Math.min(this.firstId, id);
    this.lastId = Math.max(this.lastId, id);
  }
}

interface PendingPublish {
  topic: string;
  messages: PreparedMessage[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Appends to the log. Publishes issued in the same event-loop turn share one transaction (a
 * group commit): each still resolves only after the commit is durable, but the fsync is paid once.
 */
export class LogWriter {
  private readonly insertRow;
  private pending: PendingPublish[] = [];
  /** Group-commit figures since open: transactions written and messages in them. */
  readonly stats = { transactions: 0, messages: 0 };
  private flushScheduled: NodeJS.Immediate | undefined;
  private readonly commitBatch;

  constructor(
    private readonly db: Db,
    private readonly topics: TopicRegistry,
    private readonly onAppended: (rows: AppendedRows) => void,
  ) {
    this.insertRow = db.prepare<[string, number, string, string, string, number]>(
      'INSERT INTO bus_messages (topic, partition, key, value, headers, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.commitBatch = db.transaction((batch: readonly PendingPublish[], rows: AppendedRows) => {
      for (const publish of batch) this.append(publish.topic, publish.messages, rows);
    });
  }

  publish(topic: string, messages: PreparedMessage[]): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.pending.push({ topic, messages, resolve, reject });
      this.flushScheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Inserts into the log, noting what it added in `rows`; the caller owns the transaction (dead-lettering commits with it). */
  append(topic: string, messages: readonly PreparedMessage[], rows: AppendedRows): void {
    const partitions = this.topics.partitionsOf(topic);
    const now = Date.now();
    for (const message of messages) {
      const partition = message.partition ?? partitionFor(message.key, partitions);
      const { lastInsertRowid } = this.insertRow.run(
        topic,
        partition,
        message.key,
        message.value,
        message.headers,
        now,
      );
      rows.add(topic, partition, Number(lastInsertRowid));
    }
  }

  /** Commits every queued publish now (also called by close()). */
  flush(): void {
    if (this.flushScheduled) clearImmediate(this.flushScheduled);
    this.flushScheduled = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const rows = new AppendedRows();
    try {
      this.commitBatch.immediate(batch, rows);
    } catch (error) {
      for (const publish of batch) publish.reject(error);
      return;
    }
    this.stats.transactions += 1;
    for (const publish of batch) {
      this.stats.messages += publish.messages.length;
      publish.resolve();
    }
    this.onAppended(rows);
  }
}
