/**
 * One key failing for a while on one partition, on a real broker: the bus retries it (a wallet
 * unreachable for that player), and meanwhile the other partition of the same consumer, fetched from
 * the same broker, goes on being handled within a bound; so do the other keys of the same partition
 * when several keys are handled at once (`keyConcurrency`, as the wallet-dispatcher does). The
 * failing key keeps its order and is handled once it stops failing; nothing is handled twice. Needs
 * `KAFKA_BROKERS`.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import type { Message, MessageBus } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { openKafkaMessageBus, parseBrokerList } from '../src/index.js';

const brokers = process.env['KAFKA_BROKERS'];

if (!brokers)
  process.stdout.write(
    '[kafka] failing-key-vs-other-partition case NOT run: KAFKA_BROKERS is not set (no Kafka here).\n',
  );

/** How long the failing key fails. */
const FAILING_MS = 12_000;
/** How late a message of the other partition may be handled after it was published. */
const BOUND_MS = 4_000;
const OTHER_KEYS = 20;

interface Handled {
  key: string;
  seq: number;
  partition: number;
  publishedAt: number;
  handledAt: number;
}

(brokers ? describe : describe.skip)('a key failing on one partition (real Kafka)', () => {
  const buses: MessageBus[] = [];
  afterAll(async () => {
    await Promise.allSettled(buses.map((bus) => bus.close()));
  });

  it.each([1, 8])(
    `with keyConcurrency %i, does not hold back the other keys: they are handled within ${BOUND_MS} ms while one key fails for ${FAILING_MS} ms`,
    async (keyConcurrency) => {
      const list = parseBrokerList(brokers ?? '');
      const topic = `failing-key.${keyConcurrency}.${Date.now()}`;
      const open = async () => {
        const bus = await openKafkaMessageBus(list, { partitions: 2, sessionTimeoutMs: 3_000 });
        buses.push(bus);
        return bus;
      };
      const handled: Handled[] = [];
      const failures: number[] = [];
      let failingUntil = Number.POSITIVE_INFINITY;
      let failingPartition: number | undefined;
      const [publisher, consumerBus] = await Promise.all([open(), open()]);
      const consumer = await consumerBus.subscribe({
        groupId: `${topic}.group`,
        topics: [topic],
        keyConcurrency,
        maxAttempts: 1_000,
        retryDelayMs: () => 500,
        handler: async (message: Message) => {
          const { seq, publishedAt } = message.value as { seq: number; publishedAt: number };
          if (message.key === 'failing' && seq === 0) {
            failingPartition = message.partition;
            if (failingUntil === Number.POSITIVE_INFINITY) failingUntil = Date.now() + FAILING_MS;
            if (Date.now() < failingUntil) {
              failures.push(Date.now());
              throw new Error('wallet unreachable for this player');
            }
          }
          handled.push({ key: message.key, seq, partition: message.partition, publishedAt, handledAt: Date.now() });
        },
      });
      await consumer.ready;

      await publisher.publish(topic, [
        { key: 'failing', value: { seq: 0, publishedAt: Date.now() } },
        { key: 'failing', value: { seq: 1, publishedAt: Date.now() } },
      ]);
      await eventually(() => expect(failures.length).toBeGreaterThanOrEqual(2), 30_000);
      // While the key fails: messages of many keys, some of them on the other partition.
      const publishedAt = Date.now();
      await publisher.publish(
        topic,
        Array.from({ length: OTHER_KEYS }, (_, n) => ({ key: `player-${n}`, value: { seq: 0, publishedAt } })),
      );
      await eventually(() => expect(handled.filter((entry) => entry.key === 'failing')).toHaveLength(2), 60_000);
      await eventually(() => expect(handled).toHaveLength(OTHER_KEYS + 2), 30_000);
      await consumer.stop();

      // With one record of a partition at a time, the failing key's partition waits behind it; with
      // several keys at once, only the key does.
      const other = handled.filter(
        (entry) => entry.key !== 'failing' && (keyConcurrency > 1 || entry.partition !== failingPartition),
      );
      expect(other.length).toBeGreaterThan(0);
      const latest = Math.max(...other.map((entry) => entry.handledAt - entry.publishedAt));
      process.stdout.write(
        `[kafka] keyConcurrency ${keyConcurrency}: ${other.length} messages of other keys, the latest handled ${latest} ms after publish; the failing key failed ${failures.length} times over ${FAILING_MS} ms\n`,
      );
      expect(latest).toBeLessThan(BOUND_MS);
      expect(new Set(handled.map((entry) => `${entry.key}/${entry.seq}`)).size).toBe(handled.length);
      // The failing key: handled once it stopped failing, in order.
      expect(handled.filter((entry) => entry.key === 'failing').map((entry) => entry.seq)).toEqual([0, 1]);
      const failingHandledAt = handled.find((entry) => entry.key === 'failing')?.handledAt ?? 0;
      expect(failingHandledAt).toBeGreaterThanOrEqual(failingUntil);
    },
    150_000,
  );
});
