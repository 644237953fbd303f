/**
 * A rebalance while a consumer works a partition, on a real broker: a member joins right after one
 * record was handled and while the next one's handler runs. The handled record is not run again and
 * nothing is counted against it; the running handler, abandoned through its signal, fails because of
 * the abort, not by itself: that is not a failed attempt, so with `maxAttempts: 1` nothing is parked,
 * and the record comes again as a first attempt to whoever owns the partition. Needs `KAFKA_BROKERS`.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { isConsumerLagSource, type Message, type MessageBus } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { openKafkaMessageBus, parseBrokerList } from '../src/index.js';

const brokers = process.env['KAFKA_BROKERS'];

if (!brokers)
  process.stdout.write('[kafka] rebalance-after-success case NOT run: KAFKA_BROKERS is not set (no Kafka here).\n');

interface Handling {
  member: string;
  value: string;
  attempt: number;
  outcome: 'handled' | 'abandoned';
}

(brokers ? describe : describe.skip)('a rebalance right after a handler succeeded (real Kafka)', () => {
  const buses: MessageBus[] = [];
  afterAll(async () => {
    await Promise.allSettled(buses.map((bus) => bus.close()));
  });

  it('counts no attempt: the handled record is not run again, the abandoned one is not parked and comes again as attempt 1', async () => {
    const list = parseBrokerList(brokers ?? '');
    const topic = `rebalance-abandon.${Date.now()}`;
    const groupId = `${topic}.group`;
    const open = async () => {
      const bus = await openKafkaMessageBus(list, { partitions: 1, sessionTimeoutMs: 3_000 });
      buses.push(bus);
      return bus;
    };
    const handlings: Handling[] = [];
    const parked: Message[] = [];
    let firstRunStarted = false;
    const handler = (member: string) => async (message: Message, context: { attempt: number; signal: AbortSignal }) => {
      const { value } = message.value as { value: string };
      if (value === 'running' && !firstRunStarted) {
        firstRunStarted = true;
        // Works until the consumer abandons it (as the wallet's POST does with this signal), at most 60 s.
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 60_000);
          context.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            handlings.push({ member, value, attempt: context.attempt, outcome: 'abandoned' });
            reject(new Error('aborted with the attempt'));
          });
        });
      }
      handlings.push({ member, value, attempt: context.attempt, outcome: 'handled' });
    };
    const subscription = (member: string) => ({
      groupId,
      topics: [topic],
      keyConcurrency: 2,
      // Any attempt counted against a record parks it.
      maxAttempts: 1,
      handler: handler(member),
    });
    const publisher = await open();
    const watcher = await publisher.subscribe({
      groupId: `${topic}.dlq-watch`,
      topics: [`${topic}.dlq`],
      handler: async (message) => void parked.push(message),
    });
    const first = await (await open()).subscribe(subscription('first'));
    await Promise.all([first.ready, watcher.ready]);
    await publisher.publish(topic, [
      { key: 'op:done', value: { value: 'done' } },
      { key: 'op:running', value: { value: 'running' } },
    ]);
    await eventually(() => {
      expect(firstRunStarted).toBe(true);
      expect(handlings).toContainEqual({ member: 'first', value: 'done', attempt: 1, outcome: 'handled' });
    }, 30_000);

    // A member joins: the group rebalances while `running` is in its handler, right after `done` succeeded.
    const second = await (await open()).subscribe(subscription('second'));
    await second.ready;
    await eventually(
      () =>
        expect(
          handlings.filter((handling) => handling.value === 'running').map((handling) => handling.outcome),
        ).toEqual(['abandoned', 'handled']),
      60_000,
    );
    // Nothing left to redeliver: the group committed past both records, and the watcher read every parked one.
    if (!isConsumerLagSource(publisher)) throw new Error('the Kafka bus cannot tell a consumer group its lag');
    await eventually(async () => {
      const lags = [
        ...(await publisher.consumerLag(groupId, [topic])),
        ...(await publisher.consumerLag(`${topic}.dlq-watch`, [`${topic}.dlq`])),
      ];
      expect(lags.filter((partition) => partition.lag > 0)).toEqual([]);
    }, 30_000);
    expect(parked).toEqual([]);
    expect(handlings.filter((handling) => handling.value === 'done')).toEqual([
      { member: 'first', value: 'done', attempt: 1, outcome: 'handled' },
    ]);
    // The abandoned run was attempt 1 and its redelivery is attempt 1 again: the abort was not counted.
    expect(handlings.filter((handling) => handling.value === 'running').map((handling) => handling.attempt)).toEqual([
      1, 1,
    ]);
    await Promise.all([first.stop(), second.stop(), watcher.stop()]);
  }, 150_000);
});
