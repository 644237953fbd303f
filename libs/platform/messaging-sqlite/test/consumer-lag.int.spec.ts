import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { eventually } from '@reelstream/testing';

const dir = mkdtempSync(join(tmpdir(), 'bus-lag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteMessageBus consumer lag', () => {
  it('counts per partition the messages a group has not committed, and falls to 0 once it has consumed them', async () => {
    const bus = await SqliteMessageBus.open(join(dir, 'bus.db'), {
      partitions: 2,
      pollIntervalMs: 10,
      commitIntervalMs: 10,
    });
    try {
      // Keys chosen to land on both partitions: five messages in all.
      await bus.publish(
        'lagged',
        ['a', 'b', 'c', 'd', 'e'].map((key) => ({ key, value: { key }, headers: {} })),
      );
      const before = await bus.consumerLag('slow', ['lagged']);
      expect(before.map(({ topic, partition }) => `${topic}/${partition}`)).toEqual(['lagged/0', 'lagged/1']);
      expect(before.reduce((sum, entry) => sum + entry.lag, 0)).toBe(5);
      expect(before.every((entry) => entry.groupId === 'slow')).toBe(true);
      // A topic nobody published to has no partitions yet: nothing to report.
      expect(await bus.consumerLag('slow', ['never-published'])).toEqual([]);

      const seen: string[] = [];
      const consumer = await bus.subscribe({
        groupId: 'slow',
        topics: ['lagged'],
        handler: async (message) => void seen.push(message.key),
      });
      await consumer.ready;
      await eventually(async () => {
        expect(seen).toHaveLength(5);
        const after = await bus.consumerLag('slow', ['lagged']);
        expect(after.map((entry) => entry.lag)).toEqual([0, 0]);
      });
      // Another group has read nothing: its lag is the whole log.
      expect((await bus.consumerLag('other', ['lagged'])).reduce((sum, entry) => sum + entry.lag, 0)).toBe(5);
      await consumer.stop();
    } finally {
      await bus.close();
    }
  });
});
