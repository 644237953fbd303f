import type { Admin, Kafka, KafkaMessage, Message as KafkaOutgoingMessage, Consumer as KafkaConsumer } from 'kafkajs';
import type { Consumer, ParkedMessageObserver, SubscribeOptions } from '@reelstream/platform-ports';
import { readLedgerEntry } from './attempt-ledger.js';
import { BatchProcessor } from './batch-processor.js';
import { deadLetterMessage, defaultDeadLetterTopic } from './dead-letter.js';
import { DeliveryGate } from './delivery-gate.js';
import { latestSeeksFor, seeksForAssignment, type InitialSeek } from './initial-offsets.js';
import { abortableSleep } from './keep-alive.js';
import { retryPolicy } from './retry-policy.js';
import type { TopicManager } from './topics.js';

export interface ConsumerDeps {
  kafka: Kafka;
  admin: Admin;
  topics: TopicManager;
  /** Sends records with acks from all in-sync replicas (the bus's producer). */
  send(topic: string, messages: KafkaOutgoingMessage[]): Promise<void>;
  membership: GroupMembership;
  /** An attempt still running after this long counts as failed. */
  handlerTimeoutMs: number;
  onError(error: unknown): void;
  onParked?: ParkedMessageObserver;
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

/** How the bus's own reply listeners differ from a service's consumer. */
export interface ListenerMode {
  /** Reply listeners commit nothing: a reply is only worth something to a request waiting now. */
  commits: boolean;
  /** Every (re)start reads from the end of every partition, whatever the group committed before. */
  alwaysFromEnd: boolean;
  /**
   * The one partition of its topics the consumer reads (a reply listener's); the others it is assigned
   * stay paused, on every join. Default: all it is assigned.
   */
  onlyPartition?: number;
}

const SERVICE_CONSUMER: ListenerMode = { commits: true, alwaysFromEnd: false };

/**
 * How long the group waits in a rebalance for a member to rejoin. A member rejoins once its running
 * handlers are done, which takes up to the handler deadline, and notices the rebalance up to a
 * session timeout late; waited less (kafkajs's default, 60 s, is the default handler deadline), the
 * member is dropped while draining and its records go to another member while they still run here.
 */
function rebalanceTimeoutMs(handlerTimeoutMs: number, sessionTimeoutMs: number): number {
  return handlerTimeoutMs + 2 * sessionTimeoutMs;
}
const MAX_RECREATE_DELAY_MS = 30_000;

/**
 * One `subscribe` on kafkajs: manual commits only (`autoCommit: false`, so a crash before the commit
 * redelivers), batches worked by `BatchProcessor`, partitions in parallel. kafkajs restarts its
 * consumer after a retriable crash by itself; after one it will not restart (`restart: false`) this
 * creates a fresh kafkajs consumer, with a growing delay, until the subscription is stopped.
 */
// Long because: park, the batch handler and stop share the consumer's retry policy, abort signal and settings
// (closures).
export async function startKafkaConsumer(
  deps: ConsumerDeps,
  options: SubscribeOptions,
  mode: ListenerMode = SERVICE_CONSUMER,
): Promise<Consumer> {
  const { kafka, admin, topics, membership } = deps;
  const policy = retryPolicy(options);
  const deadLetterTopic = options.deadLetterTopic ?? defaultDeadLetterTopic;
  const fromLatest = options.fromOffset === 'latest' || mode.alwaysFromEnd;
  const keyConcurrency = options.keyConcurrency ?? 1;
  if (!Number.isSafeInteger(keyConcurrency) || keyConcurrency < 1)
    throw new RangeError(`keyConcurrency must be a positive integer, got ${keyConcurrency}`);
  await topics.ensure(options.topics);
  const partitionCount = await topics.partitionCount(options.topics);
  const concurrency = options.partitionsConsumedConcurrently ?? Math.max(1, partitionCount);
  const stopping = new AbortController();
  /**
   * A reply listener's next offset per partition: the end when it first started, then past each reply
   * it handled. Every join (a recreated consumer's too) seeks there, not to the end again: replies
   * published while it was away would be lost, their requests time out, and their bets be canceled.
   */
  const replyPositions = new Map<string, InitialSeek>();
  const handler: SubscribeOptions['handler'] = mode.alwaysFromEnd
    ? async (message, context) => {
        await options.handler(message, context);
        const key = `${message.topic}/${message.partition}`;
        const next = BigInt(message.offset) + 1n;
        const known = replyPositions.get(key);
        if (!known || BigInt(known.offset) < next)
          replyPositions.set(key, { topic: message.topic, partition: message.partition, offset: next.toString() });
      }
    : options.handler;

  const park = async (topic: string, partition: number, record: KafkaMessage, reason: string, attempts: number) => {
    const target = deadLetterTopic(topic);
    await topics.ensure([target]);
    await deps.send(target, [deadLetterMessage({ topic, partition, record, reason, attempts })]);
    try {
      deps.onParked?.({
        topic,
        partition,
        offset: record.offset,
        key: record.key === null ? '' : record.key.toString('utf8'),
        deadLetterTopic: target,
        reason,
        attempts,
        groupId: options.groupId,
      });
    } catch (error) {
      deps.onError(error);
    }
  };
  const processor = new BatchProcessor({
    handler,
    policy,
    keyConcurrency,
    handlerTimeoutMs: deps.handlerTimeoutMs,
    heartbeatIntervalMs: membership.heartbeatIntervalMs,
    commits: mode.commits,
    park,
    leftBehind: (topic, partition) => readLedgerEntry(admin, options.groupId, topic, partition),
    onError: deps.onError,
    stopping: stopping.signal,
  });
  const gate = new DeliveryGate();

  let joined = false;
  let markReady: () => void = () => undefined;
  let failReady: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  // Whoever awaits `ready` sees a failure; nobody awaiting it must not crash the process.
  ready.catch(() => undefined);

  let current: KafkaConsumer | undefined;
  let recreateDelayMs = 1_000;
  /** In its group now: false from a crash (restarted by kafkajs or recreated here) until the next join. */
  let inGroup = false;
  /** Partitions of `options.topics` its last join gave it. */
  let assigned = 0;

  /**
   * "latest" for a service group means "published after subscribe was called", so only its first
   * generation seeks; a reply listener starts at the end, then goes on where it was (`replyPositions`).
   */
  const firstSeeks = async (): Promise<InitialSeek[]> => {
    if (joined) return [];
    const read = (everyPartition: boolean) =>
      latestSeeksFor(admin, options.groupId, options.topics, { everyPartition, stopping: stopping.signal });
    if (!mode.alwaysFromEnd) return fromLatest ? read(false) : [];
    for (const seek of await read(true)) replyPositions.set(`${seek.topic}/${seek.partition}`, seek);
    return [];
  };

  const startGeneration = async (): Promise<void> => {
    const seeks = await firstSeeks();
    const consumer = kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      rebalanceTimeout: rebalanceTimeoutMs(deps.handlerTimeoutMs, membership.sessionTimeoutMs),
      sessionTimeout: membership.sessionTimeoutMs,
      heartbeatInterval: membership.heartbeatIntervalMs,
      maxWaitTimeInMs: membership.maxWaitTimeMs,
    });
    let seeked = false;
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      processor.onAssignment();
      // Before the first fetch of this generation, like the seeks below; kafkajs keeps a pause across joins.
      const only = mode.onlyPartition;
      if (only !== undefined) {
        consumer.pause(options.topics.map((topic) => ({ topic })));
        consumer.resume(options.topics.map((topic) => ({ topic, partitions: [only] })));
      }
      assigned = assignedPartitions(event.payload.memberAssignment, options.topics);
      if (mode.alwaysFromEnd) {
        // Every join, kafkajs's own restarts too: the group commits nothing for kafkajs to resume from.
        const positions = [...replyPositions.values()];
        for (const seek of seeksForAssignment(positions, event.payload.memberAssignment)) consumer.seek(seek);
      } else if (!seeked) {
        seeked = true;
        // Synchronous on purpose: kafkajs emits GROUP_JOIN before its first fetch, so the seeks apply to it.
        for (const seek of seeksForAssignment(seeks, event.payload.memberAssignment)) consumer.seek(seek);
      }
      recreateDelayMs = 1_000;
      inGroup = true;
      if (!joined) {
        joined = true;
        markReady();
      }
    });
    consumer.on(consumer.events.CRASH, (event) => {
      deps.onError(event.payload.error);
      if (consumer === current) inGroup = false;
      if (event.payload.restart || stopping.signal.aborted) return;
      if (!joined) return failReady(event.payload.error);
      scheduleRecreate();
    });
    current = consumer;
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [...options.topics], fromBeginning: !fromLatest });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: concurrency,
        eachBatch: async (payload) => {
          await gate.admit(() => processor.process(payload));
        },
      });
    } catch (error) {
      await consumer.disconnect();
      throw error;
    }
  };

  // kafkajs has already disconnected the crashed consumer; a new one rejoins the group.
  const scheduleRecreate = () => {
    const delay = recreateDelayMs;
    recreateDelayMs = Math.min(MAX_RECREATE_DELAY_MS, recreateDelayMs * 2);
    void abortableSleep(delay, stopping.signal).then(async () => {
      if (stopping.signal.aborted) return;
      try {
        await startGeneration();
      } catch (error) {
        deps.onError(error);
        scheduleRecreate();
      }
    });
  };

  await startGeneration();

  let stopped: Promise<void> | undefined;
  return {
    ready,
    get healthy() {
      return inGroup && !stopping.signal.aborted;
    },
    get share() {
      return partitionCount > 0 ? Math.min(1, assigned / partitionCount) : 0;
    },
    stop() {
      stopped ??= (async () => {
        stopping.abort();
        failReady(new Error(`consumer ${options.groupId} stopped before joining its group`));
        // In-flight batches commit what they finished before kafkajs stops.
        await gate.close();
        await current?.stop();
        await current?.disconnect();
      })();
      return stopped;
    },
  };
}

/** How many partitions of `topics` an assignment holds (kafkajs's GROUP_JOIN `memberAssignment`). */
function assignedPartitions(assignment: Record<string, number[]>, topics: readonly string[]): number {
  return topics.reduce((sum, topic) => sum + (assignment[topic]?.length ?? 0), 0);
}
