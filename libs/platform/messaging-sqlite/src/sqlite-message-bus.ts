import { randomUUID } from 'node:crypto';
import {
  BusHeaders,
  type ConsumerLag,
  type ConsumerLagSource,
  type Message,
  type MessageBus,
  type OutgoingMessage,
  type ParkedMessage,
  type ParkedMessageObserver,
  type RequestOptions,
  replyPartitionOf,
} from '@reelstream/platform-ports';
import { z } from 'zod';
import { acquireNotifier, releaseNotifier, type ChangeNotifier } from './change-notifier.js';
import { SqliteConsumer, type ConsumerEnvironment, type SqliteSubscribeOptions } from './consumer.js';
import { consumerLagOf } from './consumer-lag.js';
import { openDatabase, type Db } from './database.js';
import { deleteGroup } from './group-membership.js';
import { LogWriter, prepareMessages } from './log-writer.js';
import { resolveBusOptions, type ResolvedBusOptions, type SqliteMessageBusOptions } from './options.js';
import { ReplyRouter } from './reply-router.js';
import { TopicRegistry } from './topics.js';

export interface SqliteMessageBusOpenOptions extends SqliteMessageBusOptions {
  /** Errors the bus recovers from by itself (a locked file, a lost lease). Default: one JSON line on stderr. */
  onError?: (error: unknown) => void;
  /** Told of every message a consumer parks on a dead-letter topic, so none is parked silently. Default: one JSON line on stderr. */
  onParked?: ParkedMessageObserver;
}

const requestOptionsSchema = z.object({
  replyTopic: z.string().min(1),
  timeoutMs: z.number().int().positive(),
  correlationId: z.string().min(1).optional(),
});

function logToStderr(error: unknown): void {
  const detail =
    error instanceof Error
      ? { error: error.message, code: (error as { code?: unknown }).code }
      : { error: String(error) };
  process.stderr.write(`${JSON.stringify({ level: 'error', component: 'messaging-sqlite', ...detail })}\n`);
}

function parkedToStderr(parked: ParkedMessage): void {
  process.stderr.write(
    `${JSON.stringify({ level: 'error', component: 'messaging-sqlite', msg: 'message parked', ...parked })}\n`,
  );
}

/**
 * The embedded durable log behind the MessageBus port: an SQLite file (WAL, synchronous=FULL by
 * default) shared by any number of processes. Messages are durable when `publish` resolves;
 * consumers commit after their handler succeeded, so delivery is at least once.
 */
export class SqliteMessageBus implements MessageBus, ConsumerLagSource {
  private readonly consumers = new Set<SqliteConsumer>();
  private readonly router: ReplyRouter;
  private readonly environment: ConsumerEnvironment;
  private closing: Promise<void> | undefined;
  private acceptingPublishes = true;

  static async open(path: string, options: SqliteMessageBusOpenOptions = {}): Promise<SqliteMessageBus> {
    if (path === ':memory:' || path === '')
      throw new Error('SqliteMessageBus needs a file: processes and connections share it');
    const { onError, onParked, ...data } = options;
    const resolved = resolveBusOptions(data);
    const db = await openDatabase(path, resolved);
    return new SqliteMessageBus(path, db, resolved, onError ?? logToStderr, onParked ?? parkedToStderr);
  }

  private constructor(
    readonly path: string,
    private readonly db: Db,
    readonly options: ResolvedBusOptions,
    onError: (error: unknown) => void,
    onParked: ParkedMessageObserver,
  ) {
    const notifier: ChangeNotifier = acquireNotifier(path);
    const topics = new TopicRegistry(db, options.partitions);
    const writer = new LogWriter(db, topics, (appended) => notifier.announce(appended));
    this.environment = { db, writer, topics, notifier, options, onError, onParked };
    this.router = new ReplyRouter((replyTopic, onReply) => this.startReplyListener(replyTopic, onReply));
  }

  get instanceId(): string {
    return this.options.instanceId;
  }

  /** Publish transactions committed by this client and the messages they carried (group-commit efficiency). */
  get publishStats(): { transactions: number; messages: number } {
    return { ...this.environment.writer.stats };
  }

  publish(topic: string, messages: OutgoingMessage | readonly OutgoingMessage[]): Promise<void> {
    if (!this.acceptingPublishes) return Promise.reject(new Error(`message bus ${this.instanceId} is closed`));
    try {
      const { writer, topics } = this.environment;
      return writer.publish(
        topic,
        prepareMessages(topic, messages, (named) => topics.partitionsOf(named)),
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  async subscribe(options: SqliteSubscribeOptions): Promise<SqliteConsumer> {
    if (this.closing) throw new Error(`message bus ${this.instanceId} is closed`);
    const memberId = options.memberId ?? this.freeMemberId(options.groupId);
    const consumer = await SqliteConsumer.start(this.environment, options, memberId, (stopped) =>
      this.consumers.delete(stopped),
    );
    this.consumers.add(consumer);
    return consumer;
  }

  async request(topic: string, message: OutgoingMessage, options: RequestOptions): Promise<Message> {
    const { replyTopic, timeoutMs, correlationId = randomUUID() } = requestOptionsSchema.parse(options);
    await this.router.listen(replyTopic);
    const { reply, cancel } = this.router.expect(topic, correlationId, timeoutMs);
    try {
      const headers = {
        ...message.headers,
        [BusHeaders.correlationId]: correlationId,
        [BusHeaders.replyTo]: replyTopic,
        [BusHeaders.replyPartition]: String(this.replyPartition(replyTopic)),
      };
      await this.publish(topic, { ...message, headers });
    } catch (error) {
      cancel();
      throw error;
    }
    return reply;
  }

  /** How many messages `groupId` has not committed yet, per partition of each of `topics` (the consumer-lag gauge). */
  consumerLag(groupId: string, topics: readonly string[]): Promise<ConsumerLag[]> {
    if (this.closing) return Promise.resolve([]);
    try {
      return Promise.resolve(consumerLagOf(this.db, groupId, topics));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** Stops every consumer (in-flight handlers finish and commit), then closes the file. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const replyTopics = await this.router.close();
      await Promise.all([...this.consumers].map((consumer) => consumer.stop()));
      this.acceptingPublishes = false;
      this.environment.writer.flush();
      if (replyTopics.length > 0) deleteGroup(this.db, this.replyGroup);
      releaseNotifier(this.path);
      this.db.close();
    })();
    return this.closing;
  }

  private get replyGroup(): string {
    return `reply.${this.instanceId}`;
  }

  /** The instance id for the first consumer of a group, then `id#2`, `id#3`…: stable across restarts. */
  private freeMemberId(groupId: string): string {
    const taken = new Set([...this.consumers].filter((c) => c.groupId === groupId).map((c) => c.memberId));
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? this.instanceId : `${this.instanceId}#${n}`;
      if (!taken.has(candidate)) return candidate;
    }
  }

  /** The one partition of `replyTopic` this client reads, and its requests name. */
  private replyPartition(replyTopic: string): number {
    return replyPartitionOf(this.options.replyNumber, this.environment.topics.partitionsOf(replyTopic));
  }

  private async startReplyListener(replyTopic: string, onReply: (message: Message) => void): Promise<SqliteConsumer> {
    // The reply group is ephemeral: a previous run's position is of no use, start at the end again.
    this.db.prepare('DELETE FROM bus_offsets WHERE group_id = ? AND topic = ?').run(this.replyGroup, replyTopic);
    return this.subscribe({
      groupId: this.replyGroup,
      topics: [replyTopic],
      fromOffset: 'latest',
      memberId: `${this.instanceId}/${replyTopic}`,
      partitions: [this.replyPartition(replyTopic)],
      maxAttempts: 1,
      handler: async (message) => onReply(message),
    });
  }
}
