import { describe, expect, it } from '@jest/globals';
import { HandlerTimeoutError, KeepAlive, abortableSleep, withDeadline } from '../src/keep-alive.js';
import { until } from './scripted-group.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keeping group membership alive', () => {
  it('heartbeats until stopped, and only reports a heartbeat that failed for another reason', async () => {
    let beats = 0;
    const errors: unknown[] = [];
    const lost: Error[] = [];
    const keepAlive = new KeepAlive(
      async () => {
        beats++;
        if (beats === 2) throw new Error('Connection timeout');
      },
      20,
      (error) => errors.push(error),
      (error) => lost.push(error),
    );
    // Waits for the beats instead of a fixed time: timers run late on a loaded machine.
    await until(() => beats >= 3);
    keepAlive.stop();
    expect(errors).toHaveLength(1);
    expect(lost).toEqual([]);
    expect(keepAlive.lost).toBeUndefined();
    const after = beats;
    await sleep(60);
    expect(beats).toBe(after);
  });

  it('reports the group as lost once on a rebalance answer, even wrapped by kafkajs, and goes on beating while the batch drains', async () => {
    let beats = 0;
    const lost: Error[] = [];
    const rebalancing = Object.assign(new Error('The group is rebalancing, so a rejoin is needed'), {
      type: 'REBALANCE_IN_PROGRESS',
    });
    const keepAlive = new KeepAlive(
      async () => {
        beats++;
        throw new Error('wrapped', { cause: rebalancing });
      },
      15,
      () => undefined,
      (error) => lost.push(error),
    );
    await until(() => lost.length > 0);
    // The coordinator keeps the session of a member that heartbeats through the rebalance.
    await until(() => beats >= 3);
    keepAlive.stop();
    expect(lost).toEqual([rebalancing]);
    expect(keepAlive.lost).toBe(rebalancing);
  });

  it('stops heartbeating once the coordinator no longer knows the member', async () => {
    let beats = 0;
    const lost: Error[] = [];
    const unknown = Object.assign(new Error('The coordinator is not aware of this member'), {
      type: 'UNKNOWN_MEMBER_ID',
    });
    const keepAlive = new KeepAlive(
      async () => {
        beats++;
        throw unknown;
      },
      15,
      () => undefined,
      (error) => lost.push(error),
    );
    await until(() => lost.length > 0);
    // No beat after the member was gone, though the interval (15 ms) passes several times.
    await sleep(100);
    keepAlive.stop();
    expect(beats).toBe(1);
    expect(lost).toEqual([unknown]);
  });

  it('stops waiting for a handler after its deadline and passes a failure on', async () => {
    const started = Date.now();
    await expect(withDeadline(() => new Promise(() => undefined), 50)).rejects.toBeInstanceOf(HandlerTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(withDeadline(async () => 42, 1_000)).resolves.toBe(42);
    await expect(withDeadline(() => Promise.reject(new Error('handler failed')), 1_000)).rejects.toThrow(
      'handler failed',
    );
  });

  it('ends a retry delay early when the consumer stops', async () => {
    const stop = new AbortController();
    const started = Date.now();
    const sleeping = abortableSleep(60_000, stop.signal);
    setTimeout(() => stop.abort(), 20);
    await sleeping;
    expect(Date.now() - started).toBeLessThan(5_000);
    const alreadyStopped = Date.now();
    await abortableSleep(60_000, stop.signal);
    expect(Date.now() - alreadyStopped).toBeLessThan(50);
  });

  it('waits the full delay when nothing stops it', async () => {
    const started = Date.now();
    await abortableSleep(50, new AbortController().signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
