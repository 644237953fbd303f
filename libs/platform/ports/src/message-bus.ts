/**
 * The MessageBus port: keyed messages on topics, consumer groups with explicit commits,
 * dead-lettering of poison messages, and request/reply. Adapters: `@reelstream/platform-messaging-sqlite`
 * (embedded durable log) and `@reelstream/platform-messaging-kafka` (kafkajs). The contract suite in
 * `@reelstream/testing` pins down every behaviour listed here.
 */
import { ReelstreamError } from '@reelstream/contracts';
import type { EventMetadata } from './event-store.js';

export type Headers = Record<string, string>;

export interface OutgoingMessage<Value = unknown> {
  /** Partitioning key: messages with the same key keep their order. */
  key: string;
  /** JSON-serialisable payload. */
  value: Value;
  headers?: Headers;
  /**
   * The partition to write to instead of the key's: only for a reply, to the partition its requester
   * reads (`reply`). Publishing to a partition the topic does not have is refused (RangeError).
   */
  partition?: number;
}

export interface Message<Value = unknown> {
  topic: string;
  partition: number;
  /** Decimal string: offsets can outgrow 2^53 on a long-lived Kafka topic. */
  offset: string;
  key: string;
  value: Value;
  headers: Headers;
  /** ISO-8601 time the message was appended to the log. */
  timestamp: string;
}

interface ConsumerContext {
  /** 1 for the first delivery of this message to this consumer process, then 2, 3, … */
  attempt: number;
  /**
   * Aborts when this attempt is abandoned: on Kafka when its deadline passed (the attempt counts as
   * failed and the record may run again) or the consumer lost the partition in a rebalance (another
   * member takes the record over). A handler passes it to its I/O, e.g. the operator POST, so an
   * abandoned attempt does not run on beside the next one. The SQLite adapter never aborts it.
   */
  signal: AbortSignal;
}

export type MessageHandler = (message: Message, context: ConsumerContext) => Promise<void>;

export interface SubscribeOptions {
  groupId: string;
  topics: readonly string[];
  handler: MessageHandler;
  /** Where a group with no committed offset starts. Default `'earliest'`. */
  fromOffset?: 'earliest' | 'latest';
  /**
   * A message whose handler throws this many times is parked on the dead-letter topic and
   * committed, so its key moves on. Default 5.
   */
  maxAttempts?: number;
  /** Where parked messages go. Default `${topic}.dlq`. */
  deadLetterTopic?: (topic: string) => string;
  /** Delay before the n-th retry of a failing handler, in ms. Default 100 · 2^(n−1), at most 5 s. */
  retryDelayMs?: (attempt: number) => number;
  /** How many partitions this consumer works on at once. Default: all it owns. */
  partitionsConsumedConcurrently?: number;
  /**
   * How many messages of one partition may be in its handler at once, never two of the same key:
   * a slow key holds only its own key, not the keys behind it in the partition. Per-key order is
   * kept, and the committed offset never passes a message whose handler has not finished (a
   * restart redelivers what finished beyond it; handlers are idempotent). Default 1: strict
   * partition order.
   */
  keyConcurrency?: number;
}

export interface Consumer {
  /** Resolves once the consumer has joined its group and owns partitions (or knows it owns none). */
  readonly ready: Promise<void>;
  /**
   * Whether the consumer is taking messages now: false before it joined its group, while a consumer
   * that crashed is being recreated (or, on SQLite, its heartbeat cannot renew its leases), and once
   * stopped. The process's readiness reports it.
   */
  readonly healthy: boolean;
  /**
   * The share of its group's partitions (of its topics) this member was given at its last join, 0–1;
   * 0 before it first joined. A limit meant for the whole group (an operator's calls in flight)
   * multiplied by it stays the group's however many members there are (docs/adr/0034-limits-divided-by-partition-share.md).
   */
  readonly share: number;
  /** Finishes in-flight handlers, commits them, leaves the group. */
  stop(): Promise<void>;
}

export interface RequestOptions {
  /**
   * The topic the responder answers on. This instance reads one partition of it, its reply partition
   * (`replyPartitionOf`), and names it in the request's `reply-partition` header; `reply()` writes there.
   */
  replyTopic: string;
  timeoutMs: number;
  /** Reuse an id (e.g. a retried command) instead of generating one. */
  correlationId?: string;
}

export interface MessageBus {
  /**
   * Resolves once every message is durable, in order per key. An array is NOT atomic across
   * partitions: after a failure some of its messages may be written and others not, so the caller
   * publishes the whole array again (consumers are idempotent). See docs/adr/0004-bus-port-promises.md.
   */
  publish(topic: string, messages: OutgoingMessage | readonly OutgoingMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Consumer>;
  /**
   * Publishes `message` with `correlation-id` and `reply-to` headers and resolves with the reply
   * carrying the same correlation id. Rejects with `RequestTimeoutError` after `timeoutMs`.
   */
  request(topic: string, message: OutgoingMessage, options: RequestOptions): Promise<Message>;
  close(): Promise<void>;
}

/** Messages of one partition a consumer group has not consumed (committed) yet. */
export interface ConsumerLag {
  groupId: string;
  topic: string;
  partition: number;
  lag: number;
}

/** A bus adapter that can tell how far a consumer group is behind the log (both adapters can). */
export interface ConsumerLagSource {
  consumerLag(groupId: string, topics: readonly string[]): Promise<ConsumerLag[]>;
}

export function isConsumerLagSource(bus: object): bus is ConsumerLagSource {
  return typeof (bus as Partial<ConsumerLagSource>).consumerLag === 'function';
}

/** Header names the bus itself reads or writes. Domain headers live in `@reelstream/contracts`. */
export const BusHeaders = {
  correlationId: 'correlation-id',
  replyTo: 'reply-to',
  replyPartition: 'reply-partition',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  deadLetterReason: 'x-dead-letter-reason',
  deadLetterAttempts: 'x-dead-letter-attempts',
  originalTopic: 'x-original-topic',
  originalPartition: 'x-original-partition',
  originalOffset: 'x-original-offset',
} as const;

/**
 * The trace context an event was stored with (`traceparent`, `tracestate` of its metadata), as the
 * headers of the message that carries it on: how a relay or an outbox keeps the trace across the
 * bus. The one place that copies it (telemetry's `contextFromEventMetadata` reads it the same way).
 */
export function traceHeadersOf(metadata: EventMetadata | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (typeof metadata?.traceparent === 'string') headers[BusHeaders.traceparent] = metadata.traceparent;
  if (typeof metadata?.tracestate === 'string') headers[BusHeaders.tracestate] = metadata.tracestate;
  return headers;
}

/** No reply in time. Retriable: the responder may answer the next request. */
export class RequestTimeoutError extends ReelstreamError {
  override readonly name = 'RequestTimeoutError';
  constructor(
    readonly topic: string,
    readonly correlationId: string,
    readonly timeoutMs: number,
  ) {
    super('SERVICE_UNAVAILABLE', `no reply on ${topic} for ${correlationId} within ${timeoutMs} ms`, {
      retriable: true,
    });
  }
}

export function isRequestTimeout(error: unknown): error is RequestTimeoutError {
  return error instanceof RequestTimeoutError;
}

/**
 * The partition of a reply topic with `partitions` partitions that a requester reads: its reply number
 * (the process's worker id, docs/adr/0044-replies-routed-to-the-instance-that-asked.md) modulo the count.
 * The pods of one workload have consecutive worker ids, so up to `partitions` of them read one
 * partition each.
 */
export function replyPartitionOf(replyNumber: number, partitions: number): number {
  if (!Number.isSafeInteger(replyNumber) || replyNumber < 0)
    throw new RangeError(`a reply number is a non-negative integer, got ${replyNumber}`);
  if (!Number.isSafeInteger(partitions) || partitions < 1)
    throw new RangeError(`a reply topic has at least one partition, got ${partitions}`);
  return replyNumber % partitions;
}

/** A reply number for a process that was given none: a hash of its instance id (FNV-1a, 32 bits). */
export function replyNumberOf(instanceId: string): number {
  return fnv1a32(instanceId);
}

/** FNV-1a, 32 bits, of the text's UTF-8 bytes: a stable spread of names over numbers, the same in every process. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/**
 * Why a message with `key` may not be written to `partition` of `topic`, or undefined when it may: a partition
 * is a non-negative integer, and one the topic has when its count (`partitions`) is given. Both adapters
 * refuse such a message with a RangeError of this text and write none of its batch.
 */
export function namedPartitionProblem(
  topic: string,
  key: string,
  partition: number,
  partitions?: number,
): string | undefined {
  if (!Number.isSafeInteger(partition) || partition < 0)
    return `topic ${topic}: a partition is a non-negative integer, got ${partition}`;
  if (partitions !== undefined && partition >= partitions)
    return `message ${key}: topic ${topic} has no partition ${partition} (it has ${partitions})`;
  return undefined;
}

/** The partition a request's `reply-partition` header names, or undefined when it names none. */
function replyPartitionHeader(request: Message): number | undefined {
  const header = request.headers[BusHeaders.replyPartition];
  if (header === undefined || !/^\d{1,9}$/.test(header)) return undefined;
  return Number(header);
}

/**
 * Answers a request received by a consumer: publishes `value` to its `reply-to` topic, on the partition
 * its `reply-partition` header names (the one its requester reads); a request without one (from a
 * requester of before that header) is answered on its correlation id's partition.
 */
export async function reply(bus: MessageBus, request: Message, value: unknown, headers: Headers = {}): Promise<void> {
  const replyTopic = request.headers[BusHeaders.replyTo];
  const correlationId = request.headers[BusHeaders.correlationId];
  if (!replyTopic || !correlationId) {
    throw new Error(
      `message ${request.topic}/${request.partition}/${request.offset} carries no reply-to or correlation-id header`,
    );
  }
  const partition = replyPartitionHeader(request);
  await bus.publish(replyTopic, {
    key: correlationId,
    value,
    headers: { ...headers, [BusHeaders.correlationId]: correlationId },
    ...(partition === undefined ? {} : { partition }),
  });
}

/**
 * Joins `groupId` on `topic`, a topic nobody writes, and resolves once it holds its partitions: from then on
 * the consumer's `share` is this process's part of the group (1/N of N live members, as the bus balances
 * them), changed by each rebalance. Nothing arrives there.
 */
export async function joinShareGroup(bus: MessageBus, groupId: string, topic: string): Promise<Consumer> {
  const consumer = await bus.subscribe({
    groupId,
    topics: [topic],
    fromOffset: 'latest',
    handler: async () => undefined,
  });
  await consumer.ready;
  return consumer;
}

export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(5_000, 100 * 2 ** Math.max(0, attempt - 1));
}

/**
 * A message an adapter parked on a dead-letter topic (after `maxAttempts`, or undecodable).
 * Adapters report every one to the `onParked` observer they are opened with, so that parking is
 * logged at error with its reason and counted in a metric (nothing is parked silently).
 */
export interface ParkedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  deadLetterTopic: string;
  reason: string;
  /** How many times the handler ran; 0 when the message could not even be decoded. */
  attempts: number;
  groupId: string;
}

export type ParkedMessageObserver = (parked: ParkedMessage) => void;
