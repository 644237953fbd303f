/**
 * The Kafka clients `bench:kafka-clients` compares, each behind the same small interface and each
 * set up as the bus's adapter sets up kafkajs (libs/platform/messaging-kafka/src/open.ts and
 * kafka-consumer.ts): an idempotent producer with one request in flight, acks from all in-sync
 * replicas, five retries, the Java client's key partitioner; a consumer group that commits by hand,
 * once per fetched batch, only what its handler finished.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Consumer as PlatformaticConsumer,
  ProduceAcks,
  Producer as PlatformaticProducer,
  compatibilityPartitioner,
  stringDeserializers,
  stringSerializers,
} from '@platformatic/kafka';
import { Kafka, Partitioners, logLevel } from 'kafkajs';

export interface OutRecord {
  key: string;
  value: string;
  headers: Record<string, string>;
}

interface InRecord {
  partition: number;
  offset: string;
  key: string;
  value: string;
}

export interface BenchProducer {
  /** Resolves once every in-sync replica has the records. */
  send(topic: string, records: readonly OutRecord[]): Promise<void>;
  close(): Promise<void>;
}

interface ConsumeOptions {
  topic: string;
  groupId: string;
  /** The work: the record's offset is committed only after this resolved. */
  handle(record: InRecord): Promise<void> | void;
  onError(error: unknown): void;
}

interface BenchConsumer {
  /** Finishes what was fetched, commits it, leaves the group. */
  stop(): Promise<void>;
  /** How often the consumer died for good and this wrapper made a new one (the bus does the same). */
  readonly recreated: number;
}

interface ProducerSettings {
  /** How long the client waits for a broker's answer before it retries. */
  requestTimeoutMs: number;
}

export interface KafkaClientUnderTest {
  name: string;
  version: string;
  producer(brokers: string[], settings: ProducerSettings): Promise<BenchProducer>;
  consume(brokers: string[], options: ConsumeOptions): Promise<BenchConsumer>;
}

/** The bus's group settings: session 10 s, heartbeat a tenth of it, rebalance above handler deadline + 2 sessions. */
const SESSION_TIMEOUT_MS = 10_000;
const HEARTBEAT_INTERVAL_MS = 1_000;
const MAX_WAIT_MS = 1_000;
const REBALANCE_TIMEOUT_MS = 60_000 + 2 * SESSION_TIMEOUT_MS;
const RETRIES = 5;
const RECREATE_DELAY_MS = 1_000;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** The installed version (read from node_modules: the package's `exports` hide its package.json). */
const versionOf = (name: string): string => {
  try {
    const manifest = join(import.meta.dirname, '../../node_modules', name, 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
};

export const kafkajsClient: KafkaClientUnderTest = {
  name: 'kafkajs',
  version: versionOf('kafkajs'),
  async producer(brokers, { requestTimeoutMs }) {
    const kafka = new Kafka({
      clientId: 'bench-kafkajs',
      brokers,
      logLevel: logLevel.NOTHING,
      requestTimeout: requestTimeoutMs,
    });
    const producer = kafka.producer({
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: true,
      maxInFlightRequests: 1,
      retry: { retries: RETRIES },
    });
    await producer.connect();
    return {
      send: async (topic, records) => {
        await producer.send({ topic, acks: -1, messages: records.map((record) => ({ ...record })) });
      },
      close: () => producer.disconnect(),
    };
  },
  async consume(brokers, { topic, groupId, handle, onError }) {
    const kafka = new Kafka({ clientId: 'bench-kafkajs', brokers, logLevel: logLevel.NOTHING });
    let stopped = false;
    let recreated = 0;
    let current: ReturnType<typeof kafka.consumer> | undefined;
    const start = async (): Promise<void> => {
      const consumer = kafka.consumer({
        groupId,
        allowAutoTopicCreation: false,
        sessionTimeout: SESSION_TIMEOUT_MS,
        heartbeatInterval: HEARTBEAT_INTERVAL_MS,
        maxWaitTimeInMs: MAX_WAIT_MS,
        rebalanceTimeout: REBALANCE_TIMEOUT_MS,
      });
      current = consumer;
      // kafkajs restarts a consumer after a retriable crash by itself; after any other the bus makes a new one.
      consumer.on(consumer.events.CRASH, (event) => {
        onError(event.payload.error);
        if (event.payload.restart || stopped) return;
        recreated++;
        void sleep(RECREATE_DELAY_MS).then(() => (stopped ? undefined : start().catch(onError)));
      });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 16,
        eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale }) => {
          let last: string | undefined;
          for (const message of batch.messages) {
            if (!isRunning() || isStale()) break;
            await handle({
              partition: batch.partition,
              offset: message.offset,
              key: message.key?.toString('utf8') ?? '',
              value: message.value?.toString('utf8') ?? '',
            });
            resolveOffset(message.offset);
            last = message.offset;
          }
          if (last === undefined) return;
          const offset = (BigInt(last) + 1n).toString();
          await commitOffsetsIfNecessary({
            topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset }] }],
          });
          await heartbeat();
        },
      });
    };
    await start();
    return {
      get recreated() {
        return recreated;
      },
      async stop() {
        stopped = true;
        await current?.stop();
        await current?.disconnect();
      },
    };
  },
};

const platformaticClient: KafkaClientUnderTest = {
  name: '@platformatic/kafka',
  version: versionOf('@platformatic/kafka'),
  async producer(brokers, { requestTimeoutMs }) {
    const producer = new PlatformaticProducer({
      clientId: 'bench-platformatic',
      bootstrapBrokers: brokers,
      idempotent: true,
      acks: ProduceAcks.ALL,
      retries: RETRIES,
      // kafkajs's requestTimeout is this one; `timeout` is what the broker may take for acks (kafkajs: 30 s).
      requestTimeout: requestTimeoutMs,
      timeout: 30_000,
      autocreateTopics: false,
      // Its default partitioner takes the murmur2 hash unsigned; Java's (and kafkajs's) clears the sign bit.
      partitioner: compatibilityPartitioner,
      serializers: stringSerializers,
    });
    return {
      send: async (topic, records) => {
        await producer.send({ messages: records.map((record) => ({ topic, ...record })) });
      },
      close: () => producer.close(true),
    };
  },
  async consume(brokers, { topic, groupId, handle, onError }) {
    let stopped = false;
    let recreated = 0;
    let stream: Awaited<ReturnType<PlatformaticConsumer<string, string, string, string>['consume']>> | undefined;
    const generation = async (): Promise<void> => {
      const consumer = new PlatformaticConsumer({
        clientId: 'bench-platformatic',
        bootstrapBrokers: brokers,
        groupId,
        sessionTimeout: SESSION_TIMEOUT_MS,
        heartbeatInterval: HEARTBEAT_INTERVAL_MS,
        rebalanceTimeout: REBALANCE_TIMEOUT_MS,
        maxWaitTime: MAX_WAIT_MS,
        autocommit: false,
        deserializers: stringDeserializers,
      });
      try {
        stream = await consumer.consume({
          topics: [topic],
          mode: 'committed',
          fallbackMode: 'earliest',
          autocommit: false,
        });
        if (stopped) return;
        let pending: Promise<void>[] = [];
        for await (const message of stream) {
          await handle({
            partition: message.partition,
            offset: message.offset.toString(),
            key: message.key,
            value: message.value,
          });
          pending.push(message.commit() as Promise<void>);
          // Commits coalesce per partition; waiting once the fetched records are worked is the per-batch commit.
          if (stream.readableLength === 0) {
            const batch = pending;
            pending = [];
            await Promise.all(batch);
          }
        }
        await Promise.all(pending);
      } finally {
        // Closing the stream first flushes its commits; the group refuses a leave while a stream is open.
        await stream?.close().catch(() => undefined);
        await consumer.close(true).catch(onError);
      }
    };
    const running = (async () => {
      while (!stopped) {
        try {
          await generation();
        } catch (error) {
          if (stopped) break;
          onError(error);
        }
        if (stopped) break;
        // The stream ended or failed without a stop: the client gave up; make a new one, as the bus would.
        recreated++;
        await sleep(RECREATE_DELAY_MS);
      }
    })();
    return {
      get recreated() {
        return recreated;
      },
      async stop() {
        stopped = true;
        await stream?.close().catch(onError);
        await running;
      },
    };
  },
};

export const CLIENTS: readonly KafkaClientUnderTest[] = [kafkajsClient, platformaticClient];
