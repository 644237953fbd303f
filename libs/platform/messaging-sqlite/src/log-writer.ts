import type { OutgoingMessage } from '@reelstream/ports';
import { z } from 'zod';
import type { Db } from './database.js';
import { partitionFor } from './partitioner.js';
import type { TopicRegistry } from './topics.js';

const topicSchema = z.string().min(1).max(249);
const outgoingSchema = z.object({
  key: z.string(),
  value: z.unknown(),
  headers: z.record(z.string(), z.string()).optional(),
});

/** A message checked and serialised before it joins a batch, so one bad message fails only its own publish. */
export interface PreparedMessage {
  key: string;
  value: string;
  headers: string;
}

export function prepareMessages(
  topic: string,
  messages: OutgoingMessage | readonly OutgoingMessage[],
): PreparedMessage[] {
  topicSchema.parse(topic);
  const list: readonly OutgoingMessage[] = Array.isArray(messages) ? messages : [messages as OutgoingMessage];
  return list.map((message) => {
    const { key, value, headers } = outgoingSchema.parse(message);
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`message ${key} on ${topic}: value is not JSON-serialisable`);
    return { key, value: json, headers: JSON.stringify(headers ?? {}) };
  });
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
    private readonly onAppended: (topics: ReadonlySet<string>) => void,
  ) {
    this.insertRow = db.prepare<[string, number, string, string, string, number]>(
      'INSERT INTO bus_messages (topic, partition, key, value, headers, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.commitBatch = db.transaction((batch: readonly PendingPublish[]) => {
      for (const publish of batch) this.append(publish.topic, publish.messages);
    });
  }

  publish(topic: string, messages: PreparedMessage[]): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.pending.push({ topic, messages, resolve, reject });
      this.flushScheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Inserts into the log; the caller owns the transaction (used for dead-lettering with a commit). */
  append(topic: string, messages: readonly PreparedMessage[]): void {
    const partitions = this.topics.partitionsOf(topic);
    const now = Date.now();
    for (const message of messages) {
      this.insertRow.run(
        topic,
        partitionFor(message.key, partitions),
        message.key,
        message.value,
        message.headers,
        now,
      );
    }
  }

  /** Commits every queued publish now (also called by close()). */
  flush(): void {
    if (this.flushScheduled) clearImmediate(this.flushScheduled);
    this.flushScheduled = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      this.commitBatch.immediate(batch);
    } catch (error) {
      for (const publish of batch) publish.reject(error);
      return;
    }
    this.stats.transactions += 1;
    for (const publish of batch) {
      this.stats.messages += publish.messages.length;
      publish.resolve();
    }
    this.onAppended(new Set(batch.map((publish) => publish.topic)));
  }
}
