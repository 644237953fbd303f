import { describe, expect, it } from '@jest/globals';
import type { Admin } from 'kafkajs';
import { latestSeeksFor, retryingRetriable, seeksForAssignment } from '../src/initial-offsets.js';
import { coordinatorLoading, tooLarge } from './protocol-errors.js';

/** An admin whose committed-offset reads fail with `failures` first (one per call), then answer. */
function adminFailingFirst(failures: Error[]) {
  const calls = { fetchOffsets: 0, fetchTopicOffsets: 0 };
  const admin = {
    fetchOffsets: async () => {
      calls.fetchOffsets++;
      const failure = failures.shift();
      if (failure) throw failure;
      return [
        {
          topic: 'bonus.commands',
          partitions: [
            { partition: 0, offset: '-1' },
            { partition: 1, offset: '12' },
          ],
        },
      ];
    },
    fetchTopicOffsets: async () => {
      calls.fetchTopicOffsets++;
      return [
        { partition: 0, offset: '40', high: '40', low: '0' },
        { partition: 1, offset: '30', high: '30', low: '0' },
      ];
    },
  } as unknown as Admin;
  return { admin, calls };
}

describe("'latest' start offsets", () => {
  const seeks = [
    { topic: 'bonus.replies', partition: 0, offset: '17' },
    { topic: 'bonus.replies', partition: 1, offset: '0' },
    { topic: 'wallet.replies', partition: 0, offset: '5' },
  ];

  it('seeks only the partitions this member was assigned', () => {
    expect(seeksForAssignment(seeks, { 'bonus.replies': [1], 'wallet.replies': [0, 1] })).toEqual([
      { topic: 'bonus.replies', partition: 1, offset: '0' },
      { topic: 'wallet.replies', partition: 0, offset: '5' },
    ]);
  });

  it('seeks nothing when the member owns no partition', () => {
    expect(seeksForAssignment(seeks, {})).toEqual([]);
  });

  it('reads the end of the uncommitted partitions again while a restarted coordinator is still loading', async () => {
    const { admin, calls } = adminFailingFirst([coordinatorLoading(), coordinatorLoading()]);
    const found = await latestSeeksFor(admin, 'gateway', ['bonus.commands'], {
      stopping: new AbortController().signal,
    });
    expect(found).toEqual([{ topic: 'bonus.commands', partition: 0, offset: '40' }]);
    expect(calls).toEqual({ fetchOffsets: 3, fetchTopicOffsets: 1 });
  });

  it('gives up on an error kafkajs marks not retriable at once', async () => {
    const { admin, calls } = adminFailingFirst([tooLarge()]);
    await expect(
      latestSeeksFor(admin, 'gateway', ['bonus.commands'], { stopping: new AbortController().signal }),
    ).rejects.toThrow('larger than the max message size');
    expect(calls.fetchOffsets).toBe(1);
  });
});

describe('retrying a retriable kafkajs failure', () => {
  const never = new AbortController().signal;

  it('throws the last failure once every delay has been waited', async () => {
    let attempts = 0;
    const failing = async () => {
      attempts++;
      throw coordinatorLoading();
    };
    await expect(retryingRetriable(failing, never, [1, 1, 1])).rejects.toThrow('coordinator is loading');
    expect(attempts).toBe(4);
  });

  it('stops trying once the consumer stops', async () => {
    const stopping = new AbortController();
    let attempts = 0;
    const failing = async () => {
      attempts++;
      stopping.abort();
      throw coordinatorLoading();
    };
    await expect(retryingRetriable(failing, stopping.signal, [60_000])).rejects.toThrow('coordinator is loading');
    expect(attempts).toBe(1);
  });

  it('does not retry an error that is not kafkajs', async () => {
    let attempts = 0;
    const failing = async () => {
      attempts++;
      throw new TypeError('a bug');
    };
    await expect(retryingRetriable(failing, never, [1, 1])).rejects.toThrow(TypeError);
    expect(attempts).toBe(1);
  });
});
