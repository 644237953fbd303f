import { expect, it } from '@jest/globals';
import { CASE_TIMEOUT_MS, WAIT_MS, type ContractHarness } from './contract-harness.js';
import { eventually } from './eventually.js';

/** `Consumer.share`: the part of its group's partitions a member was given, which divides a group-wide limit. */
export function shareCases(harness: () => ContractHarness): void {
  it(
    'is the whole for a lone member, divides between two members without a gap, and is whole again when one leaves',
    async () => {
      const h = harness();
      const [publisher, first, second] = await Promise.all([h.open(), h.open(), h.open()]);
      const topic = h.name('share');
      const groupId = h.name('group');
      await publisher.publish(topic, { key: 'player-0', value: { seq: 0 } });

      const alone = await h.record(first, { groupId, topics: [topic] });
      await eventually(() => expect(alone.consumer.share).toBe(1), WAIT_MS, 50);

      const joined = await h.record(second, { groupId, topics: [topic] });
      await eventually(
        () => {
          const shares = [alone.consumer.share, joined.consumer.share];
          expect(shares.every((share) => share > 0 && share < 1)).toBe(true);
          expect(shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 10);
        },
        WAIT_MS,
        50,
      );

      await joined.consumer.stop();
      await eventually(() => expect(alone.consumer.share).toBe(1), WAIT_MS, 50);
    },
    CASE_TIMEOUT_MS,
  );
}
