/**
 * A member joins while another is in a handler longer than kafkajs's default rebalance timeout (60 s):
 * the group must wait for the draining member (rebalance timeout above the handler deadline plus two
 * session timeouts) instead of dropping it and handing its record to the newcomer while it still
 * runs. Long (about 80 s): `npm run test:kafka-faults` runs it (`KAFKA_FAULTS_LONG=1`).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import type { MessageBus } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { openKafkaMessageBus, parseBrokerList } from '../../src/index.js';

const brokers = process.env['KAFKA_BROKERS'];
const LONG = process.env['KAFKA_FAULTS_LONG'] === '1';
const HANDLER_MS = 65_000;

if (!brokers || !LONG) {
  process.stdout.write(
    '[kafka-faults] long-handler rebalance case NOT run: it takes over a minute (npm run test:kafka-faults runs it).\n',
  );
}

(brokers && LONG ? describe : describe.skip)('a rebalance while a handler runs longer than 60 s (real Kafka)', () => {
  const buses: MessageBus[] = [];
  afterAll(async () => {
    await Promise.allSettled(buses.map((bus) => bus.close()));
  });

  it(
    'waits for the draining member: the record runs once, never on two members at once',
    async () => {
      const list = parseBrokerList(brokers ?? '');
      const topic = `faults.rebalance-drain.${Date.now()}`;
      const groupId = `${topic}.group`;
      const options = { partitions: 1, sessionTimeoutMs: 3_000, handlerTimeoutMs: HANDLER_MS + 10_000 };
      const open = async () => {
        const bus = await openKafkaMessageBus(list, options);
        buses.push(bus);
        return bus;
      };
      let running = 0;
      let mostAtOnce = 0;
      const runs: string[] = [];
      // Ignores its signal on purpose: what is tested is that the group waits for it.
      const handler = (member: string) => async () => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        runs.push(member);
        try {
          await new Promise((resolve) => setTimeout(resolve, HANDLER_MS));
        } finally {
          running--;
        }
      };
      const first = await (await open()).subscribe({ groupId, topics: [topic], handler: handler('first') });
      await first.ready;
      await (await open()).publish(topic, { key: 'op:p1', value: { n: 1 } });
      await eventually(() => expect(runs).toEqual(['first']), 30_000);
      const second = await (await open()).subscribe({ groupId, topics: [topic], handler: handler('second') });
      await second.ready;
      await eventually(() => expect(running).toBe(0), HANDLER_MS + 30_000);
      // A second run would have started by now had the record been handed over uncommitted.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(mostAtOnce).toBe(1);
      expect(runs).toEqual(['first']);
    },
    HANDLER_MS * 3,
  );
});
