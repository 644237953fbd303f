import { describe, expect, it } from '@jest/globals';
import type { Message } from '@reelstream/platform-ports';
import { deliver, type AttemptHandler as MessageHandler, type DeliveryEffects } from '../src/deliver.js';
import type { Decoded } from '../src/message-mapping.js';
import { retryPolicy } from '../src/retry-policy.js';

const message: Message = {
  topic: 'wallet.requests',
  partition: 0,
  offset: '12',
  key: 'player-1',
  value: { amount: 5 },
  headers: {},
  timestamp: '2026-01-01T00:00:00.000Z',
};
const decoded: Decoded = { ok: true, message };

/** Records every effect; `stopAfterSleeps` makes the consumer "stop" after that many retry delays. */
function effects(stopAfterSleeps = Number.POSITIVE_INFINITY) {
  const log: string[] = [];
  let sleeps = 0;
  const fx: DeliveryEffects = {
    park: async (reason, attempts) => {
      log.push(`park(${attempts}): ${reason}`);
    },
    sleep: async (ms) => {
      sleeps++;
      log.push(`sleep ${ms}`);
    },
    beforeAttempt: async (attempt) => {
      log.push(`mark ${attempt}`);
    },
    isStopping: () => sleeps >= stopAfterSleeps,
  };
  return { fx, log };
}

function failingTimes(failures: number, seen: number[] = []): MessageHandler {
  return async (_message, { attempt }) => {
    seen.push(attempt);
    if (seen.length <= failures) throw new Error(`attempt ${attempt} failed`);
  };
}

describe('deliver', () => {
  it('does not count a failure of an attempt the consumer abandoned (revoked partition): stopped, nothing parked', async () => {
    const { fx, log } = effects();
    let abandoned = false;
    const handler: MessageHandler = async () => {
      abandoned = true;
      throw new Error('aborted with the attempt');
    };
    const outcome = await deliver(
      decoded,
      handler,
      retryPolicy({ maxAttempts: 3 }),
      { ...fx, abandoned: () => abandoned },
      2,
    );
    expect(outcome).toEqual({ kind: 'stopped', attempts: 2 });
    expect(log).toEqual(['mark 3']);
  });

  it('handles a message that succeeds at once, marking the attempt durable before the handler runs', async () => {
    const seen: number[] = [];
    const { fx, log } = effects();
    expect(await deliver(decoded, failingTimes(0, seen), retryPolicy({}), fx)).toEqual({
      kind: 'handled',
      attempts: 1,
    });
    expect(seen).toEqual([1]);
    expect(log).toEqual(['mark 1']);
  });

  it('retries with the policy delays and numbers the attempts', async () => {
    const seen: number[] = [];
    const { fx, log } = effects();
    const outcome = await deliver(
      decoded,
      failingTimes(2, seen),
      retryPolicy({ maxAttempts: 5, retryDelayMs: (n) => n * 10 }),
      fx,
    );
    expect(outcome).toEqual({ kind: 'handled', attempts: 3 });
    expect(seen).toEqual([1, 2, 3]);
    expect(log.filter((entry) => entry.startsWith('sleep'))).toEqual(['sleep 10', 'sleep 20']);
  });

  it('hands the retry to the consumer when it takes it over (defer): deferred with the delay, no sleep, nothing parked', async () => {
    const seen: number[] = [];
    const { fx, log } = effects();
    const deferred: number[] = [];
    const defer = (ms: number) => {
      deferred.push(ms);
      return true;
    };
    const policy = retryPolicy({ maxAttempts: 3, retryDelayMs: (n) => n * 10 });
    const first = await deliver(decoded, failingTimes(2, seen), policy, { ...fx, defer });
    expect(first).toEqual({ kind: 'deferred', attempts: 1, delayMs: 10 });
    // Delivered again later, the attempts go on from where they were.
    const second = await deliver(decoded, failingTimes(2, seen), policy, { ...fx, defer }, first.attempts);
    expect(second).toEqual({ kind: 'deferred', attempts: 2, delayMs: 20 });
    expect(seen).toEqual([1, 2]);
    expect(deferred).toEqual([10, 20]);
    expect(log.filter((entry) => entry.startsWith('sleep') || entry.startsWith('park'))).toEqual([]);
    // The last attempt is not deferred: a failure parks.
    const third = await deliver(
      decoded,
      async () => Promise.reject(new Error('still down')),
      policy,
      { ...fx, defer },
      2,
    );
    expect(third).toMatchObject({ kind: 'parked', attempts: 3 });
  });

  it('parks after maxAttempts failures with the last error as reason', async () => {
    const seen: number[] = [];
    const { fx, log } = effects();
    const outcome = await deliver(
      decoded,
      failingTimes(99, seen),
      retryPolicy({ maxAttempts: 3, retryDelayMs: () => 1 }),
      fx,
    );
    expect(outcome).toEqual({ kind: 'parked', attempts: 3, reason: 'Error: attempt 3 failed' });
    expect(seen).toEqual([1, 2, 3]);
    expect(log.filter((entry) => entry.startsWith('park'))).toEqual(['park(3): Error: attempt 3 failed']);
  });

  it('continues counting attempts across deliveries of the same record in this process', async () => {
    const seen: number[] = [];
    const { fx } = effects();
    const outcome = await deliver(
      decoded,
      failingTimes(99, seen),
      retryPolicy({ maxAttempts: 3, retryDelayMs: () => 1 }),
      fx,
      2,
    );
    expect(outcome).toMatchObject({ kind: 'parked', attempts: 3 });
    expect(seen).toEqual([3]);
  });

  it('parks without running the handler when earlier owners already spent every attempt', async () => {
    const seen: number[] = [];
    const { fx, log } = effects();
    const outcome = await deliver(decoded, failingTimes(0, seen), retryPolicy({ maxAttempts: 3 }), fx, 3);
    expect(outcome).toMatchObject({ kind: 'parked', attempts: 3 });
    expect(seen).toEqual([]);
    expect(log).toEqual([expect.stringMatching(/^park\(3\): the consumer stopped 3 times inside the handler/)]);
  });

  it('parks a record that could not be decoded without running the handler', async () => {
    const seen: number[] = [];
    const { fx, log } = effects();
    const outcome = await deliver(
      { ok: false, reason: 'value is not JSON' },
      failingTimes(0, seen),
      retryPolicy({}),
      fx,
    );
    expect(outcome).toEqual({ kind: 'parked', attempts: 0, reason: 'value is not JSON' });
    expect(seen).toEqual([]);
    expect(log).toEqual(['park(0): value is not JSON']);
  });

  it('gives up without parking or committing when the consumer stops during a retry delay', async () => {
    const seen: number[] = [];
    const { fx, log } = effects(1);
    const outcome = await deliver(
      decoded,
      failingTimes(99, seen),
      retryPolicy({ maxAttempts: 5, retryDelayMs: () => 60_000 }),
      fx,
    );
    expect(outcome).toEqual({ kind: 'stopped', attempts: 1 });
    expect(seen).toEqual([1]);
    expect(log.some((entry) => entry.startsWith('park'))).toBe(false);
  });

  it('fails the delivery when parking fails, so the record is not committed', async () => {
    const { fx } = effects();
    fx.park = async () => {
      throw new Error('broker unavailable');
    };
    await expect(deliver(decoded, failingTimes(99), retryPolicy({ maxAttempts: 1 }), fx)).rejects.toThrow(
      'broker unavailable',
    );
  });
});
