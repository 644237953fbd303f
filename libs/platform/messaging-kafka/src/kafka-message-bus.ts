import { randomUUID } from 'node:crypto';
import type { Admin, Kafka, Message as KafkaOutgoingMessage, Producer } from 'kafkajs';
import {
  BusHeaders,
  type Consumer,
  type Message,
  type MessageBus,
  type OutgoingMessage,
  type RequestOptions,
  type SubscribeOptions,
} from '@reelstream/ports';
import { startKafkaConsumer, type GroupMembership } from './kafka-consumer.js';
import { toKafkaMessage } from './message-mapping.js';
import { PendingRequests } from './pending-requests.js';
import type { TopicManager } from './topics.js';

export class BusClosedError extends Error {
  override readonly name = 'BusClosedError';
  constructor() {
    super('the Kafka message bus is closed');
  }
}

export interface KafkaBusParts {
  kafka: Kafka;
  admin: Admin;
  producer: Producer;
  topics: TopicManager;
  /** Names this process: its reply consumers form the groups `reply.${instanceId}.${replyTopic}`. */
  instanceId: string;
  membership: GroupMembership;
  onError(error: unknown): void;
}

/** The group of this instance's consumer of one reply topic. */
export function replyGroupId(instanceId: string, replyTopic: string): string {
  return `reply.${instanceId}.${replyTopic}`;
}

/** The port's `MessageBus` on Kafka (kafkajs 2.2). Create it with `openKafkaMessageBus`. */
export class KafkaMessageBus implements MessageBus {
  private readonly consumers = new Set<Consumer>();
  private readonly replyListeners = new Map<string, Promise<Consumer>>();
  private readonly pending = new PendingRequests();
  private closed = false;
  /** Set only after the consumers stopped, so their in-flight handlers can still park records. */
  private producerClosed = false;

  constructor(private readonly parts: KafkaBusParts) {}

  get instanceId(): string {
    return this.parts.instanceId;
  }

  async publish(topic: string, messages: OutgoingMessage | readonly OutgoingMessage[]): Promise<void> {
    const batch = (Array.isArray(messages) ? messages : [messages]) as readonly OutgoingMessage[];
    this.assertOpen();
    if (batch.length === 0) return;
    await this.send(topic, batch.map(toKafkaMessage));
  }

  /** acks -1: the broker answers once every in-sync replica has the records. */
  private async send(topic: string, records: KafkaOutgoingMessage[]): Promise<void> {
    if (this.producerClosed) throw new BusClosedError();
    await this.parts.topics.ensure([topic]);
    await this.parts.producer.send({ topic, messages: records, acks: -1 });
  }

  async subscribe(options: SubscribeOptions): Promise<Consumer> {
    this.assertOpen();
    const consumer = await startKafkaConsumer(
      {
        kafka: this.parts.kafka,
        admin: this.parts.admin,
        topics: this.parts.topics,
        send: (topic, records) => this.send(topic, records),
        membership: this.parts.membership,
        onError: this.parts.onError,
      },
      options,
    );
    this.consumers.add(consumer);
    return {
      ready: consumer.ready,
      stop: async () => {
        this.consumers.delete(consumer);
        await consumer.stop();
      },
    };
  }

  async request(topic: string, message: OutgoingMessage, options: RequestOptions): Promise<Message> {
    this.assertOpen();
    const correlationId = options.correlationId ?? randomUUID();
    const listener = await this.replyListener(options.replyTopic);
    await listener.ready;
    // Waiting starts before the request leaves, so even an instant reply finds its waiter.
    const pending = this.pending.register(correlationId, topic, options.timeoutMs);
    try {
      await this.publish(topic, {
        ...message,
        headers: { ...message.headers, [BusHeaders.correlationId]: correlationId, [BusHeaders.replyTo]: options.replyTopic },
      });
    } catch (error) {
      pending.cancel(error);
    }
    return pending.reply;
  }

  /**
   * One consumer per reply topic for this instance, started on the first request that needs it, in a
   * group of its own: kafkajs' round-robin assigner hands out the partitions of every topic in a group
   * to every member whatever it subscribed to, so two reply topics must not share one group.
   */
  private replyListener(replyTopic: string): Promise<Consumer> {
    let listener = this.replyListeners.get(replyTopic);
    if (!listener) {
      listener = this.subscribe({
        groupId: replyGroupId(this.parts.instanceId, replyTopic),
        topics: [replyTopic],
        fromOffset: 'latest',
        maxAttempts: 1,
        handler: async (reply) => {
          this.pending.settle(reply);
        },
      });
      listener.catch(() => this.replyListeners.delete(replyTopic));
      this.replyListeners.set(replyTopic, listener);
    }
    return listener;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pending.failAll(new BusClosedError());
    const consumers = [...this.consumers];
    this.consumers.clear();
    const results = await Promise.allSettled(consumers.map((consumer) => consumer.stop()));
    this.producerClosed = true;
    await this.parts.producer.disconnect();
    await this.parts.admin.disconnect();
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private assertOpen(): void {
    if (this.closed) throw new BusClosedError();
  }
}
