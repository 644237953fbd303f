import type { Admin, EachMessagePayload, Kafka, Message as KafkaOutgoingMessage } from 'kafkajs';
import type { Consumer, SubscribeOptions } from '@reelstream/ports';
import { deadLetterMessage, defaultDeadLetterTopic } from './dead-letter.js';
import { deliver, type DeliveryEffects } from './deliver.js';
import { DeliveryGate } from './delivery-gate.js';
import { latestSeeksFor, seeksForAssignment, type InitialSeek } from './initial-offsets.js';
import { abortableSleep, whileHeartbeating } from './keep-alive.js';
import { fromKafkaMessage, nextCommitOffset } from './message-mapping.js';
import { retryPolicy } from './retry-policy.js';
import type { TopicManager } from './topics.js';

export interface ConsumerDeps {
  kafka: Kafka;
  admin: Admin;
  topics: TopicManager;
  /** Sends records with acks from all in-sync replicas (the bus's producer). */
  send(topic: string, messages: KafkaOutgoingMessage[]): Promise<void>;
  membership: GroupMembership;
  onError(error: unknown): void;
}

/** How a consumer keeps its place in its group. */
export interface GroupMembership {
  /** A member silent this long is dropped and its partitions reassigned (a crashed process's, too). */
  sessionTimeoutMs: number;
  /** How often the consumer heartbeats, also during long handlers and retry delays. */
  heartbeatIntervalMs: number;
  /** How long an idle fetch waits for records; bounds how late a member notices a rebalance. */
  maxWaitTimeMs: number;
}

const recordKey = (topic: string, partition: number, offset: string) => `${topic}/${partition}/${offset}`;

/**
 * One kafkajs consumer for one `subscribe`: manual commits only (`autoCommit: false`, so a crash
 * before the commit redelivers), one record at a time per partition in offset order, partitions in
 * parallel. Every record ends handled or parked, and only then is its offset + 1 committed. It uses
 * `eachMessage`, whose runner itself stops between records when the consumer stops or a partition was
 * seeked (what `isRunning()`/`isStale()` are for with `eachBatch`).
 */
export async function startKafkaConsumer(deps: ConsumerDeps, options: SubscribeOptions): Promise<Consumer> {
  const { kafka, admin, topics } = deps;
  const policy = retryPolicy(options);
  const deadLetterTopic = options.deadLetterTopic ?? defaultDeadLetterTopic;
  const fromLatest = options.fromOffset === 'latest';
  await topics.ensure(options.topics);
  const concurrency = options.partitionsConsumedConcurrently ?? Math.max(1, await topics.partitionCount(options.topics));
  const seeks: InitialSeek[] = fromLatest ? await latestSeeksFor(admin, options.groupId, options.topics) : [];

  const { membership } = deps;
  const consumer = kafka.consumer({
    groupId: options.groupId,
    allowAutoTopicCreation: false,
    sessionTimeout: membership.sessionTimeoutMs,
    heartbeatInterval: membership.heartbeatIntervalMs,
    maxWaitTimeInMs: membership.maxWaitTimeMs,
  });
  const stopping = new AbortController();
  const attempts = new Map<string, number>();

  let joined = false;
  let markReady: () => void = () => undefined;
  let failReady: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  // Whoever awaits `ready` sees a failure; nobody awaiting it must not crash the process.
  ready.catch(() => undefined);
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    if (joined) return;
    joined = true;
    // Synchronous on purpose: kafkajs emits GROUP_JOIN before its first fetch, so the seeks apply to it.
    for (const seek of seeksForAssignment(seeks, event.payload.memberAssignment)) consumer.seek(seek);
    markReady();
  });
  consumer.on(consumer.events.CRASH, (event) => {
    deps.onError(event.payload.error);
    if (!joined && !event.payload.restart) failReady(event.payload.error);
  });

  const deliverRecord = async ({ topic, partition, message: record, heartbeat }: EachMessagePayload): Promise<void> => {
    const key = recordKey(topic, partition, record.offset);
    const prior = attempts.get(key) ?? 0;
    const effects: DeliveryEffects = {
      park: async (reason, attemptsMade) => {
        const target = deadLetterTopic(topic);
        await topics.ensure([target]);
        await deps.send(target, [deadLetterMessage({ topic, partition, record, reason, attempts: attemptsMade })]);
      },
      sleep: (ms) => abortableSleep(ms, stopping.signal),
      keepAlive: (work) => whileHeartbeating(work, heartbeat, membership.heartbeatIntervalMs, deps.onError),
      isStopping: () => stopping.signal.aborted,
    };
    const outcome = await deliver(fromKafkaMessage(topic, partition, record), options.handler, policy, effects, prior);
    attempts.set(key, outcome.attempts);
    if (outcome.kind === 'stopped') return;
    // A failed commit (e.g. the partition moved in a rebalance) throws into kafkajs, which rejoins and
    // refetches from the last committed offset: the record comes again, to an idempotent handler.
    await consumer.commitOffsets([{ topic, partition, offset: nextCommitOffset(record.offset) }]);
    attempts.delete(key);
  };

  const gate = new DeliveryGate();
  const eachMessage = async (payload: EachMessagePayload): Promise<void> => {
    await gate.admit(() => deliverRecord(payload));
  };

  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...options.topics], fromBeginning: !fromLatest });
    await consumer.run({ autoCommit: false, partitionsConsumedConcurrently: concurrency, eachMessage });
  } catch (error) {
    await consumer.disconnect();
    throw error;
  }

  let stopped: Promise<void> | undefined;
  return {
    ready,
    stop() {
      stopped ??= (async () => {
        stopping.abort();
        failReady(new Error(`consumer ${options.groupId} stopped before joining its group`));
        // In-flight deliveries commit before kafkajs stops (it would drop their commits afterwards).
        await gate.close();
        await consumer.stop();
        await consumer.disconnect();
      })();
      return stopped;
    },
  };
}
