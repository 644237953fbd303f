import { expect, it } from '@jest/globals';
import { isConsumerLagSource, type MessageBus } from '@reelstream/platform-ports';
import { CASE_TIMEOUT_MS, WAIT_MS, type ContractHarness } from './contract-harness.js';
import { eventually } from './eventually.js';

async function totalLag(bus: MessageBus, groupId: string, topic: string): Promise<number> {
  if (!isConsumerLagSource(bus)) throw new Error('the adapter cannot tell consumer lag');
  const lags = await bus.consumerLag(groupId, [topic]);
  expect(lags.every((entry) => entry.groupId === groupId && entry.topic === topic && entry.lag >= 0)).toBe(true);
  return lags.reduce((sum, entry) => sum + entry.lag, 0);
}

/** Consumer lag (the `reelstream_bus_consumer_lag` gauge): what a group has not committed, per partition. */
export function consumerLagCases(harness: () => ContractHarness): void {
  it(
    'counts the messages a group has not consumed, everything for a group that never committed, 0 once it has',
    async () => {
      const h = harness();
      const [publisher, consumer] = await Promise.all([h.open(), h.open()]);
      const topic = h.name('lag');
      const groupId = h.name('group');
      await publisher.publish(
        topic,
        Array.from({ length: 6 }, (_, seq) => ({ key: `player-${seq}`, value: { seq } })),
      );
      expect(await totalLag(publisher, groupId, topic)).toBe(6);

      const recorder = await h.record(consumer, { groupId, topics: [topic] });
      await eventually(() => expect(recorder.messages).toHaveLength(6), WAIT_MS);
      await eventually(async () => expect(await totalLag(publisher, groupId, topic)).toBe(0), WAIT_MS, 100);
      // Another group is as far behind as the log is long.
      expect(await totalLag(publisher, h.name('other-group'), topic)).toBe(6);
    },
    CASE_TIMEOUT_MS,
  );
}
