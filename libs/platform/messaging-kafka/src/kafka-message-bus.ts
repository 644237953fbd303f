import { randomUUID } from 'node:crypto';
import type { Admin, Kafka, Message as KafkaOutgoingMessage, Producer } from 'kafkajs';
import {
  BusHeaders,
  type Consumer,
  type ConsumerLag,
  type ConsumerLagSource,
  type Message,
  type MessageBus,
  type OutgoingMessage,
  type ParkedMessageObserver,
  type RequestOptions,
  type SubscribeOptions,
  namedPartitionProblem,
  replyPartitionOf,
} from '@reelstream/platform-ports';
import { kafkaConsumerLag } from './consumer-lag.js';
import { fromKafkajs } from './kafka-errors.js';
import { startKafkaConsumer, type GroupMembership, type ListenerMode } from './kafka-consumer.js';
import { toKafkaMessage } from './message-mapping.js';
import { PendingRequests } from './pending-requests.js';
import type { TopicManager } from './topics.js';
import { ReelstreamError } from '@reelstream/contracts';

class BusClosedError extends ReelstreamError {
  override readonly name = 'BusClosedError';
  constructor() {
    super('SERVICE_UNAVAILABLE', 'the Kafka message bus is closed', { retriable: true });
  }
}

export interface KafkaBusParts {
  kafka: Kafka;
  admin: Admin;
  /** Connected; replaced by `newProducer()` after any send it rejected. */
  producer: Producer;
  /** A producer like the first, not connected yet (kafkajs' `kafka.producer(PRODUCER_CONFIG)`). */
  newProducer(): Producer;
  topics: TopicManager;
  /** Names this process: its reply consumers form the groups `reply.${instanceId}.${replyTopic}`. */
  instanceId: string;
  /** Picks the one partition of each reply topic this process reads (`replyPartitionOf`). */
  replyNumber: number;
  membership: GroupMembership;
  /** An attempt still running after this long counts as failed (see `withDeadline`). */
  handlerTimeoutMs: number;
  onError(error: unknown): void;
  onParked?: ParkedMessageObserver;
}

/** The group of this instance's consumer of one reply topic. */
export function replyGroupId(instanceId: string, replyTopic: string): string {
  return `reply.${instanceId}.${replyTopic}`;
}

interface WaitingSend {
  topic: string;
  records: KafkaOutgoingMessage[];
  resolve(): void;
  reject(error: unknown): void;
}

/** The port's `MessageBus` on Kafka (kafkajs 2.2). Create it with `openKafkaMessageBus`. */
export class KafkaMessageBus implements MessageBus, ConsumerLagSource {
  private readonly consumers = new Set<Consumer>();
  /** Per reply topic: its listener, and the one partition it reads (the requests' `reply-partition`). */
  private readonly replyListeners = new Map<string, Promise<{ consumer: Consumer; partition: number }>>();
  private readonly joinedReplyGroups = new Set<string>();
  /** Partitions per topic a message named a partition of (see `checkPartition`). */
  private readonly partitionCounts = new Map<string, number>();
  private readonly pending = new PendingRequests();
  private closed = false;
  /** Set only after the consumers stopped, so their in-flight handlers can still park records. */
  private producerClosed = false;
  private producer: Producer;
  /** From a send the producer rejected until a new producer is connected in its place. */
  private producerBroken = false;
  private replacing: Promise<void> | undefined;
  /** Publishes waiting for the send in flight to end; they go out together as the next one. */
  private readonly waiting: WaitingSend[] = [];
  private sending = false;

  constructor(private readonly parts: KafkaBusParts) {
    this.producer = parts.producer;
  }

  /**
   * False while the producer is being replaced after a rejected send (and a replacement could not
   * connect yet): every consumer of this bus reports itself unhealthy meanwhile, so readiness says so.
   */
  get producerHealthy(): boolean {
    return !this.producerBroken;
  }

  /** How many messages `groupId` has not committed yet, per partition of each of `topics` (the consumer-lag gauge). */
  consumerLag(groupId: string, topics: readonly string[]): Promise<ConsumerLag[]> {
    if (this.closed) return Promise.resolve([]);
    return kafkaConsumerLag(this.parts.admin, groupId, topics);
  }

  get instanceId(): string {
    return this.parts.instanceId;
  }

  async publish(topic: string, messages: OutgoingMessage | readonly OutgoingMessage[]): Promise<void> {
    const batch = (Array.isArray(messages) ? messages : [messages]) as readonly OutgoingMessage[];
    this.assertOpen();
    if (batch.length === 0) return;
    const records = batch.map(toKafkaMessage);
    const named = new Set(batch.flatMap(({ partition }) => (partition === undefined ? [] : [partition])));
    for (const partition of named) await this.checkPartition(topic, partition, batch);
    await this.send(topic, records);
  }

  /**
   * Refuses a message naming a partition the topic does not have (kafkajs would retry it until its
   * deadline). The count is cached: a topic's partitions only grow, so a partition past the cached count
   * reads it again before refusing.
   */
  private async checkPartition(topic: string, partition: number, batch: readonly OutgoingMessage[]): Promise<void> {
    const key = batch.find((message) => message.partition === partition)?.key ?? '';
    const invalid = namedPartitionProblem(topic, key, partition);
    if (invalid) throw new RangeError(invalid);
    const cached = this.partitionCounts.get(topic);
    if (cached !== undefined && partition < cached) return;
    await this.parts.topics.ensure([topic]);
    const partitions = await this.parts.topics.partitionCount([topic]);
    this.partitionCounts.set(topic, partitions);
    const missing = namedPartitionProblem(topic, key, partition, partitions);
    if (missing) throw new RangeError(missing);
  }

  /**
   * acks -1: the broker answers once every in-sync replica has the records. A rejected send retires
   * the producer: kafkajs's idempotent producer takes its sequence numbers back after a failure, but
   * the broker may have written the batch whose answer was lost, and then the next batch of the same
   * size would be acknowledged as that batch's duplicate without being written (and one of another
   * size refused with OUT_OF_ORDER_SEQUENCE_NUMBER for ever). A new producer gets a new producer id,
   * so nothing it sends can be taken for what the old one sent.
   *
   * One send is in flight at a time; what is published meanwhile waits and goes out together as the
   * next send. Two sends at once would share the producer's sequence numbers: one queued behind an
   * attempt whose answer was lost (kafkajs takes its numbers back and retries it) gets those numbers,
   * and when it has as many records the broker acknowledges it as that attempt's duplicate without
   * writing it — a publish that resolves and is lost, even when the other send succeeds on its retry.
   */
  private send(topic: string, records: KafkaOutgoingMessage[]): Promise<void> {
    if (this.producerClosed) return Promise.reject(new BusClosedError());
    return this.parts.topics.ensure([topic]).then(
      () =>
        new Promise<void>((resolve, reject) => {
          this.waiting.push({ topic, records, resolve, reject });
          this.pump();
        }),
    );
  }

  /** Starts the next send with everything waiting, unless one is in flight. */
  private pump(): void {
    if (this.sending || this.waiting.length === 0) return;
    const sends = this.waiting.splice(0);
    this.sending = true;
    void this.sendTogether(sends).finally(() => {
      this.sending = false;
      this.pump();
    });
  }

  private async sendTogether(sends: readonly WaitingSend[]): Promise<void> {
    try {
      if (this.producerClosed) throw new BusClosedError();
      if (this.producerBroken) await this.replaceProducer();
      const producer = this.producer;
      const byTopic = new Map<string, KafkaOutgoingMessage[]>();
      for (const { topic, records } of sends) byTopic.set(topic, [...(byTopic.get(topic) ?? []), ...records]);
      try {
        await producer.sendBatch({
          topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
          acks: -1,
        });
      } catch (error) {
        if (producer === this.producer && !this.producerClosed)
          this.replaceProducer().catch((replacing: unknown) => this.parts.onError(replacing));
        throw error;
      }
      for (const { resolve } of sends) resolve();
    } catch (error) {
      const failure = fromKafkajs(error);
      for (const { reject } of sends) reject(failure);
    }
  }

  /** Disconnects the current producer and connects a new one; one replacement at a time. */
  private replaceProducer(): Promise<void> {
    this.producerBroken = true;
    this.replacing ??= (async () => {
      const failed = this.producer;
      await failed.disconnect().catch((error: unknown) => this.parts.onError(error));
      const fresh = this.parts.newProducer();
      try {
        await fresh.connect();
      } catch (error) {
        await fresh.disconnect().catch(() => undefined);
        throw error;
      }
      this.producer = fresh;
      this.producerBroken = false;
    })().finally(() => {
      this.replacing = undefined;
    });
    return this.replacing;
  }

  async subscribe(options: SubscribeOptions): Promise<Consumer> {
    return this.startConsumer(options);
  }

  private async startConsumer(options: SubscribeOptions, mode?: ListenerMode): Promise<Consumer> {
    this.assertOpen();
    const { kafka, admin, topics, membership, handlerTimeoutMs, onError, onParked } = this.parts;
    const consumer = await startKafkaConsumer(
      {
        kafka,
        admin,
        topics,
        send: (topic, records) => this.send(topic, records),
        membership,
        handlerTimeoutMs,
        onError,
        ...(onParked ? { onParked } : {}),
      },
      options,
      mode,
    );
    this.consumers.add(consumer);
    const producerHealthy = () => this.producerHealthy;
    return {
      ready: consumer.ready,
      get healthy() {
        return consumer.healthy && producerHealthy();
      },
      get share() {
        return consumer.share;
      },
      stop: async () => {
        this.consumers.delete(consumer);
        await consumer.stop();
      },
    };
  }

  async request(topic: string, message: OutgoingMessage, options: RequestOptions): Promise<Message> {
    this.assertOpen();
    const correlationId = options.correlationId ?? randomUUID();
    // The clock starts first: a broker that does not answer (listener start, publish) still ends in
    // RequestTimeoutError after `timeoutMs`, and waiting before the request leaves lets even an
    // instant reply find its waiter.
    const pending = this.pending.register(correlationId, topic, options.timeoutMs);
    void this.sendRequest(topic, message, options.replyTopic, correlationId).catch((error: unknown) =>
      pending.cancel(error),
    );
    return pending.reply;
  }

  private async sendRequest(
    topic: string,
    message: OutgoingMessage,
    replyTopic: string,
    correlationId: string,
  ): Promise<void> {
    const { consumer, partition } = await this.replyListener(replyTopic);
    await consumer.ready;
    await this.publish(topic, {
      ...message,
      headers: {
        ...message.headers,
        [BusHeaders.correlationId]: correlationId,
        [BusHeaders.replyTo]: replyTopic,
        [BusHeaders.replyPartition]: String(partition),
      },
    });
  }

  /**
   * One consumer per reply topic for this instance, started on the first request that needs it, in a
   * group of its own: kafkajs' round-robin assigner hands out the partitions of every topic in a group
   * to every member whatever it subscribed to, so two reply topics must not share one group. It reads
   * one partition, this process's reply partition (the others stay paused: kafkajs has no manual
   * assignment), commits nothing and starts at its end (a restarted instance does not replay the
   * replies of its previous life); a listener that failed to start or join is forgotten, so the next
   * request starts a new one, and one that crashed later is recreated by its consumer.
   */
  private replyListener(replyTopic: string): Promise<{ consumer: Consumer; partition: number }> {
    let listener = this.replyListeners.get(replyTopic);
    if (!listener) {
      const starting = this.startReplyListener(replyTopic);
      listener = starting;
      const forget = () => {
        if (this.replyListeners.get(replyTopic) === starting) this.replyListeners.delete(replyTopic);
      };
      starting
        .then(async ({ consumer }) => {
          await consumer.ready;
          this.joinedReplyGroups.add(replyGroupId(this.parts.instanceId, replyTopic));
        })
        .catch(forget);
      this.replyListeners.set(replyTopic, listener);
    }
    return listener;
  }

  private async startReplyListener(replyTopic: string): Promise<{ consumer: Consumer; partition: number }> {
    await this.parts.topics.ensure([replyTopic]);
    const partition = replyPartitionOf(this.parts.replyNumber, await this.parts.topics.partitionCount([replyTopic]));
    const consumer = await this.startConsumer(
      {
        groupId: replyGroupId(this.parts.instanceId, replyTopic),
        topics: [replyTopic],
        fromOffset: 'latest',
        maxAttempts: 1,
        handler: async (reply) => {
          this.pending.settle(reply);
        },
      },
      { commits: false, alwaysFromEnd: true, onlyPartition: partition },
    );
    return { consumer, partition };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pending.failAll(new BusClosedError());
    const consumers = [...this.consumers];
    this.consumers.clear();
    const results = await Promise.allSettled(consumers.map((consumer) => consumer.stop()));
    // Reply groups hold no offsets worth keeping: without this, every restart would leave one behind.
    const replyGroups = [...this.joinedReplyGroups];
    this.replyListeners.clear();
    if (replyGroups.length > 0)
      await this.parts.admin.deleteGroups(replyGroups).catch((error: unknown) => this.parts.onError(error));
    this.producerClosed = true;
    await this.replacing?.catch(() => undefined);
    await this.producer.disconnect();
    await this.parts.admin.disconnect();
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private assertOpen(): void {
    if (this.closed) throw new BusClosedError();
  }
}
