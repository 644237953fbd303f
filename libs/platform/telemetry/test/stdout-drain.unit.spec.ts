import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { drained } from '../src/stdout-drain.js';

/** SonicBoom's state as `drained` reads it, moved by the test. */
class FakeStdout extends EventEmitter {
  destroyed = false;
  _writing = true;
  _retryTimer: unknown = null;
}

const LIMITS = { drainMs: 5_000, settleMs: 1_000 };

/** Starts the wait; `done()` says whether it has answered (after the promise callbacks due by now ran). */
function wait(stream: FakeStdout) {
  let answered = false;
  void drained(stream, LIMITS).then(() => (answered = true));
  return { done: async () => (await jest.advanceTimersByTimeAsync(0), answered) };
}

describe('drained (waiting for the asynchronous stdout before exit), on fake timers', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('answers at once when no write is on its way, or the stream is destroyed', async () => {
    const idle = new FakeStdout();
    idle._writing = false;
    const destroyed = new FakeStdout();
    destroyed.destroyed = true;
    expect([await wait(idle).done(), await wait(destroyed).done()]).toEqual([true, true]);
  });

  it('answers on drain, before its limit', async () => {
    const stream = new FakeStdout();
    const waiting = wait(stream);
    expect(await waiting.done()).toBe(false);
    stream.emit('drain');
    expect(await waiting.done()).toBe(true);
  });

  it('at its limit with a retry pending (a reader that stopped reading), answers then', async () => {
    const stream = new FakeStdout();
    const waiting = wait(stream);
    await jest.advanceTimersByTimeAsync(LIMITS.drainMs - 1);
    stream._retryTimer = {};
    expect(await waiting.done()).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await waiting.done()).toBe(true);
  });

  it('past its limit with a write in flight, waits for it to come back first (flushSync would write beside it)', async () => {
    const stream = new FakeStdout();
    const waiting = wait(stream);
    await jest.advanceTimersByTimeAsync(LIMITS.drainMs + 150);
    expect(await waiting.done()).toBe(false);
    // Back with EAGAIN: its retry is pending.
    stream._retryTimer = {};
    await jest.advanceTimersByTimeAsync(1);
    expect(await waiting.done()).toBe(true);
  });

  it('gives up on a write that stays in flight after its settle time too', async () => {
    const stream = new FakeStdout();
    const waiting = wait(stream);
    await jest.advanceTimersByTimeAsync(LIMITS.drainMs + LIMITS.settleMs - 2);
    expect(await waiting.done()).toBe(false);
    await jest.advanceTimersByTimeAsync(2);
    expect(await waiting.done()).toBe(true);
  });
});
