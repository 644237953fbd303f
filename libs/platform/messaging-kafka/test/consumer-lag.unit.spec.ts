import { describe, expect, it } from '@jest/globals';
import { kafkaConsumerLag, lagFromOffsets } from '../src/consumer-lag.js';

describe('consumer lag from the admin offsets (kafkajs fetchTopicOffsets / fetchOffsets)', () => {
  it('is the high watermark minus the committed offset, per partition in partition order', () => {
    expect(
      lagFromOffsets(
        'wallet-dispatcher',
        'wallet.requests',
        [
          { partition: 1, high: '40', low: '0' },
          { partition: 0, high: '17', low: '0' },
        ],
        [
          { partition: 0, offset: '17' },
          { partition: 1, offset: '35' },
        ],
      ),
    ).toEqual([
      { groupId: 'wallet-dispatcher', topic: 'wallet.requests', partition: 0, lag: 0 },
      { groupId: 'wallet-dispatcher', topic: 'wallet.requests', partition: 1, lag: 5 },
    ]);
  });

  it('counts everything retained where the group committed nothing (-1 or absent): it starts at the earliest', () => {
    expect(
      lagFromOffsets(
        'g',
        't',
        [
          { partition: 0, high: '120', low: '100' },
          { partition: 1, high: '7', low: '7' },
          { partition: 2, high: '9', low: '4' },
        ],
        [
          { partition: 0, offset: '-1' },
          { partition: 1, offset: '-1' },
        ],
      ).map((entry) => entry.lag),
    ).toEqual([20, 0, 5]);
  });

  it('is never negative and stays exact past 2^53 offsets', () => {
    expect(
      lagFromOffsets('g', 't', [{ partition: 0, high: '10', low: '0' }], [{ partition: 0, offset: '12' }]),
    ).toEqual([{ groupId: 'g', topic: 't', partition: 0, lag: 0 }]);
    expect(
      lagFromOffsets(
        'g',
        't',
        [{ partition: 0, high: '9007199254740999', low: '0' }],
        [{ partition: 0, offset: '9007199254740990' }],
      )[0]?.lag,
    ).toBe(9);
  });

  it('asks the admin client for each topic and maps what it answers', async () => {
    const asked: string[] = [];
    const admin = {
      fetchTopicOffsets: (topic: string) => {
        asked.push(`ends ${topic}`);
        return Promise.resolve([{ partition: 0, offset: '30', high: '30', low: '10' }]);
      },
      fetchOffsets: ({ groupId, topics }: { groupId: string; topics?: string[] }) => {
        asked.push(`committed ${groupId} ${String(topics)}`);
        return Promise.resolve(
          (topics ?? []).map((topic) => ({ topic, partitions: [{ partition: 0, offset: '25', metadata: null }] })),
        );
      },
    };
    expect(await kafkaConsumerLag(admin, 'bonus-ledger', ['bonus.commands', 'bonus.events'])).toEqual([
      { groupId: 'bonus-ledger', topic: 'bonus.commands', partition: 0, lag: 5 },
      { groupId: 'bonus-ledger', topic: 'bonus.events', partition: 0, lag: 5 },
    ]);
    expect(asked.sort()).toEqual([
      'committed bonus-ledger bonus.commands',
      'committed bonus-ledger bonus.events',
      'ends bonus.commands',
      'ends bonus.events',
    ]);
  });
});
