import { describe, expect, it } from '@jest/globals';
import { abortableSleep, whileHeartbeating } from '../src/keep-alive.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keeping group membership alive', () => {
  it('heartbeats while long work runs and stops when it ends', async () => {
    let beats = 0;
    let thirdBeat!: () => void;
    const beatenThrice = new Promise<void>((resolve) => (thirdBeat = resolve));
    // The work ends only once it has seen three heartbeats, however late a busy machine runs the timer.
    const result = await whileHeartbeating(
      async () => {
        await beatenThrice;
        return 'done';
      },
      async () => {
        if (++beats === 3) thirdBeat();
      },
      20,
      () => undefined,
    );
    expect(result).toBe('done');
    expect(beats).toBe(3);
    await sleep(100); // five intervals: no beat may come after the work ended
    expect(beats).toBe(3);
  });

  it('reports a failing heartbeat without aborting the work, and passes the work failure on', async () => {
    const errors: unknown[] = [];
    let reported!: () => void;
    const failureReported = new Promise<void>((resolve) => (reported = resolve));
    const result = await whileHeartbeating(
      () => failureReported.then(() => 42),
      () => Promise.reject(new Error('The group is rebalancing')),
      15,
      (error) => {
        errors.push(error);
        reported();
      },
    );
    expect(result).toBe(42);
    expect(errors.length).toBeGreaterThan(0);
    await expect(whileHeartbeating(() => Promise.reject(new Error('handler failed')), async () => undefined, 15, () => undefined)).rejects.toThrow('handler failed');
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
