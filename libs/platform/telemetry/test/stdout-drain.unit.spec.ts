import { EventEmitter } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import { drained } from '../src/stdout-drain.js';

/** SonicBoom's state as `drained` reads it, moved by the test. */
class FakeStdout extends EventEmitter {
  destroyed = false;
  _writing = true;
  _retryTimer: unknown = null;
}

const LIMITS = { drainMs: 40, settleMs: 400 };
const settledAfter = async (stream: FakeStdout, act: (stream: FakeStdout) => void = () => undefined) => {
  const started = performance.now();
  let resolved = false;
  const waiting = drained(stream, LIMITS).then(() => (resolved = true));
  act(stream);
  await waiting;
  return { resolved, ms: performance.now() - started };
};

describe('drained (waiting for the asynchronous stdout before exit)', () => {
  it('answers at once when no write is on its way, or the stream is destroyed', async () => {
    const idle = new FakeStdout();
    idle._writing = false;
    expect((await settledAfter(idle)).ms).toBeLessThan(20);
    const destroyed = new FakeStdout();
    destroyed.destroyed = true;
    expect((await settledAfter(destroyed)).ms).toBeLessThan(20);
  });

  it('answers on drain, before its limit', async () => {
    const { ms } = await settledAfter(new FakeStdout(), (stream) => setTimeout(() => stream.emit('drain'), 10));
    expect(ms).toBeLessThan(LIMITS.drainMs);
  });

  it('past its limit with a retry pending (a reader that stopped reading), answers at the limit', async () => {
    const { ms } = await settledAfter(new FakeStdout(), (stream) => (stream._retryTimer = {}));
    expect(ms).toBeGreaterThanOrEqual(LIMITS.drainMs - 2);
    expect(ms).toBeLessThan(LIMITS.drainMs + 100);
  });

  it('past its limit with a write in flight, waits for it to come back first (flushSync would write beside it)', async () => {
    // In flight until 150 ms, then back with EAGAIN: its retry is pending.
    const { ms } = await settledAfter(new FakeStdout(), (stream) => setTimeout(() => (stream._retryTimer = {}), 150));
    expect(ms).toBeGreaterThanOrEqual(148);
    expect(ms).toBeLessThan(LIMITS.settleMs);
  });

  it('gives up on a write that stays in flight after its settle time too', async () => {
    const { ms } = await settledAfter(new FakeStdout());
    expect(ms).toBeGreaterThanOrEqual(LIMITS.drainMs + LIMITS.settleMs - 2);
    expect(ms).toBeLessThan(LIMITS.drainMs + LIMITS.settleMs + 200);
  });
});
