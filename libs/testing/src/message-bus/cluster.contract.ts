import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BusHeaders,
  isRequestTimeout,
  reply,
  type Consumer,
  type Message,
  type MessageBus,
} from '@reelstream/platform-ports';
import { CASE_TIMEOUT_MS, WAIT_MS } from './contract-harness.js';
import { eventually } from './eventually.js';
import { WorkerProcess } from './worker-process.js';

const POISON_WORKER = fileURLToPath(new URL('./workers/poison-consumer.worker.ts', import.meta.url));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface ClusterBusOptions {
  instanceId?: string;
  partitions?: number;
  sessionTimeoutMs?: number;
  handlerTimeoutMs?: number;
}

/** A real cluster behind the bus, with what the cases need to look at it or disturb it. */
export interface MessageBusClusterUnderTest {
  adapter: string;
  /** What a child process passes to `openMessageBus` to reach the same cluster. */
  url: string;
  open(options?: ClusterBusOptions): Promise<MessageBus>;
  /** How the cluster created `topic`: replicas per partition and `min.insync.replicas`. */
  topicReplication(topic: string): Promise<{ replicationFactor: number; minInsyncReplicas: number }>;
  /** What the adapter promises to create topics with on this cluster. */
  expectedReplication(): Promise<{ replicationFactor: number; minInsyncReplicas: number }>;
  /** Stops the brokers answering (e.g. `docker compose pause`), and lets them answer again. */
  pauseBrokers?: () => Promise<void>;
  resumeBrokers?: () => Promise<void>;
  dispose(): Promise<void>;
}

/**
 * What first contact with a real cluster tests: rebalances during long handlers, parking
 * that cannot be written, a hung key, a paused broker, a poison message that kills its process,
 * restarted requesters and created topics' replication.
 */
export function describeMessageBusClusterContract(
  make: () => Promise<MessageBusClusterUnderTest>,
  adapter: string,
): void {
  describe(`MessageBus cluster contract [${adapter}]`, () => {
    let cluster: MessageBusClusterUnderTest | undefined;
    const buses = new Set<MessageBus>();
    const children = new Set<WorkerProcess>();
    const run = randomUUID().slice(0, 8);
    let counter = 0;
    const name = (kind: string) => `cluster.${kind}.${run}.${++counter}`;
    const open = async (options: ClusterBusOptions = {}) => {
      if (!cluster) throw new Error('the cluster under test was not made');
      const bus = await cluster.open(options);
      buses.add(bus);
      return bus;
    };

    beforeAll(async () => {
      cluster = await make();
    }, 120_000);
    afterEach(async () => {
      await Promise.allSettled([...buses].map((bus) => bus.close()));
      buses.clear();
      await Promise.all([...children].map((child) => child.kill('SIGKILL')));
      children.clear();
    }, 60_000);
    afterAll(async () => cluster?.dispose(), 60_000);

    it(
      'hands every message over when a member joins while another member is in a handler longer than the session timeout',
      async () => {
        const topic = name('rebalance');
        const group = name('group');
        const publisher = await open({ partitions: 4 });
        const handled = new Set<string>();
        const slowBus = await open({ partitions: 4, sessionTimeoutMs: 6_000 });
        let slowOnce = true;
        const slow = await slowBus.subscribe({
          groupId: group,
          topics: [topic],
          handler: async (message) => {
            if (slowOnce) {
              slowOnce = false;
              await sleep(15_000);
            }
            handled.add(message.key);
          },
        });
        await slow.ready;
        await publisher.publish(
          topic,
          Array.from({ length: 40 }, (_, n) => ({ key: `op:p${n}`, value: { n } })),
        );
        await sleep(1_000);
        const joiner = await (
          await open({ partitions: 4, sessionTimeoutMs: 6_000 })
        ).subscribe({
          groupId: group,
          topics: [topic],
          handler: async (message) => void handled.add(message.key),
        });
        await joiner.ready;
        await eventually(() => expect(handled.size).toBe(40), 60_000);
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'keeps a message it cannot park uncommitted: another member of the group gets it',
      async () => {
        const topic = name('unwritable-dlq');
        const group = name('group');
        const bus = await open();
        await bus.publish(topic, { key: 'op:p1', value: { n: 1 } });
        let attempts = 0;
        const failing = await bus.subscribe({
          groupId: group,
          topics: [topic],
          maxAttempts: 1,
          // Not a legal topic name: every park is refused by the broker.
          deadLetterTopic: () => 'no such topic!',
          handler: async () => {
            attempts++;
            throw new Error('always fails');
          },
        });
        await eventually(() => expect(attempts).toBeGreaterThanOrEqual(1), WAIT_MS);
        await failing.stop();
        const received: Message[] = [];
        const second = await (
          await open()
        ).subscribe({ groupId: group, topics: [topic], handler: async (message) => void received.push(message) });
        await second.ready;
        await eventually(() => expect(received.map((message) => message.key)).toEqual(['op:p1']), WAIT_MS);
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'lets the other keys of a partition pass one hung key (keyConcurrency), and parks the hung one after its deadline',
      async () => {
        const topic = name('hung-key');
        const bus = await open({ partitions: 1, handlerTimeoutMs: 1_000 });
        const handled: string[] = [];
        const consumer = await bus.subscribe({
          groupId: name('group'),
          topics: [topic],
          keyConcurrency: 4,
          maxAttempts: 2,
          retryDelayMs: () => 10,
          handler: async (message) => {
            if (message.key === 'op:hung') await new Promise<never>(() => undefined);
            handled.push(message.key);
          },
        });
        await consumer.ready;
        await bus.publish(topic, [
          { key: 'op:hung', value: 0 },
          ...Array.from({ length: 10 }, (_, n) => ({ key: `op:p${n}`, value: n })),
        ]);
        await eventually(() => expect(handled).toHaveLength(10), 5_000);
        const parked: Message[] = [];
        const dlq = await bus.subscribe({
          groupId: name('dlq'),
          topics: [`${topic}.dlq`],
          handler: async (message) => void parked.push(message),
        });
        await dlq.ready;
        await eventually(
          () => expect(parked.map((message) => message.headers[BusHeaders.deadLetterAttempts])).toEqual(['2']),
          WAIT_MS,
        );
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'ends a request with RequestTimeoutError on time while the brokers are paused',
      async () => {
        if (!cluster?.pauseBrokers || !cluster.resumeBrokers) {
          process.stdout.write(
            '[contract] paused-broker case NOT run: the cluster under test cannot pause its brokers (set KAFKA_PAUSE_COMMAND and KAFKA_RESUME_COMMAND).\n',
          );
          return;
        }
        const bus = await open({ instanceId: name('requester') });
        await cluster.pauseBrokers();
        try {
          const started = Date.now();
          const outcome = await bus
            .request(name('requests'), { key: 'op:p1', value: {} }, { replyTopic: name('replies'), timeoutMs: 1_000 })
            .catch((error: unknown) => error);
          expect(isRequestTimeout(outcome)).toBe(true);
          expect(Date.now() - started).toBeLessThan(3_000);
        } finally {
          await cluster.resumeBrokers();
        }
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'parks a message that kills its consumer process, after maxAttempts deaths, and goes on with the next',
      async () => {
        const topic = name('poison');
        const group = name('group');
        const bus = await open();
        await bus.publish(topic, [
          { key: 'op:p1', value: { n: 1 } },
          { key: 'op:p1', value: { n: 2, poison: true } },
          { key: 'op:p1', value: { n: 3 } },
        ]);
        let deaths = 0;
        let done = false;
        for (let life = 0; life < 6 && !done; life++) {
          const worker = new WorkerProcess(POISON_WORKER, {
            BUS_URL: cluster?.url ?? '',
            TOPIC: topic,
            GROUP_ID: group,
            INSTANCE_ID: name('poison-worker'),
          });
          children.add(worker);
          const sawLast = worker.waitForLine(/^HANDLED 3$/, WAIT_MS).then(
            () => true,
            () => false,
          );
          done = await Promise.race([sawLast, worker.exited.then(() => false)]);
          if (!worker.alive) deaths++;
          await worker.kill('SIGKILL');
          children.delete(worker);
        }
        expect(done).toBe(true);
        expect(deaths).toBeGreaterThanOrEqual(2);
        const parked: Message[] = [];
        const dlq = await bus.subscribe({
          groupId: name('dlq'),
          topics: [`${topic}.dlq`],
          handler: async (message) => void parked.push(message),
        });
        await dlq.ready;
        await eventually(
          () => expect(parked.map((message) => message.value)).toEqual([{ n: 2, poison: true }]),
          WAIT_MS,
        );
      },
      CASE_TIMEOUT_MS * 3,
    );

    it(
      'answers the first request of a requester restarted after 10k replies without replaying them',
      async () => {
        const requests = name('requests');
        const replies = name('replies');
        const instanceId = name('requester');
        const responderBus = await open();
        const responder: Consumer = await responderBus.subscribe({
          groupId: name('responder'),
          topics: [requests],
          keyConcurrency: 16,
          handler: async (message) => reply(responderBus, message, { ok: true }),
        });
        await responder.ready;
        const first = await open({ instanceId });
        for (let sent = 0; sent < 10_000; sent += 200) {
          await Promise.all(
            Array.from({ length: 200 }, (_, n) =>
              first.request(requests, { key: `op:p${n}`, value: { n } }, { replyTopic: replies, timeoutMs: WAIT_MS }),
            ),
          );
        }
        await first.close();
        buses.delete(first);
        const restarted = await open({ instanceId });
        const started = Date.now();
        await restarted.request(requests, { key: 'op:p1', value: {} }, { replyTopic: replies, timeoutMs: WAIT_MS });
        expect(Date.now() - started).toBeLessThan(10_000);
      },
      CASE_TIMEOUT_MS * 4,
    );

    it(
      'creates topics with the replication factor and min.insync.replicas the adapter promises',
      async () => {
        const topic = name('replication');
        await (await open()).publish(topic, { key: 'op:p1', value: 1 });
        if (!cluster) throw new Error('no cluster');
        expect(await cluster.topicReplication(topic)).toEqual(await cluster.expectedReplication());
      },
      CASE_TIMEOUT_MS,
    );
  });
}
