/**
 * Waiting for pino's asynchronous stdout (a SonicBoom) before the process exits, whose exit hook then
 * writes what is left synchronously (`flushSync`).
 */
import type { EventEmitter } from 'node:events';

/** The SonicBoom fields the wait reads (sonic-boom 5, pinned by the root package.json's overrides). */
export interface DrainableStream extends Pick<EventEmitter, 'once' | 'off'> {
  readonly destroyed: boolean;
  /** A write is on its way: in flight, or waiting on `_retryTimer` to be tried again after EAGAIN. */
  readonly _writing: boolean;
  readonly _retryTimer: unknown;
}

export interface DrainLimits {
  /** How long to wait for every line to be out: a reader that stopped reading must not hold a shutdown. */
  drainMs: number;
  /** Then, how long to wait for a write in flight to come back, at most. */
  settleMs: number;
}

const STDOUT_DRAIN_LIMITS: DrainLimits = { drainMs: 5_000, settleMs: 1_000 };

/**
 * Resolves when no write is in flight. SonicBoom's own flush() answers at once when it holds no
 * buffer of its own (minLength 0, the default), even while a write is still on its way, hence its
 * `_writing` flag; it emits `drain` when that write and the lines queued behind it are out.
 *
 * When the reader has not taken them within `drainMs`, it still waits (up to `settleMs`) until no
 * `fs.write` is in flight, only a retry timer pending: `flushSync` at exit writes the queued lines at
 * once beside a write in flight, and that write's chunk (about 16 KiB of lines) could come out after
 * lines written behind it. A retry pending is safe: `flushSync` cancels it and writes that chunk first.
 * Against a stalled reader a write is in flight for one system call, which answers EAGAIN.
 */
export function drained(stream: DrainableStream, limits: DrainLimits = STDOUT_DRAIN_LIMITS): Promise<void> {
  if (stream.destroyed || !stream._writing) return Promise.resolve();
  const settled = () => stream.destroyed || !stream._writing || stream._retryTimer !== null;
  return new Promise<void>((resolve) => {
    let poll: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(limit);
      clearTimeout(poll);
      stream.off('drain', done).off('error', done).off('close', done);
      resolve();
    };
    const settleBy = (deadline: number) => {
      if (settled() || Date.now() >= deadline) return done();
      poll = setTimeout(() => settleBy(deadline), 1);
      poll.unref();
    };
    const limit = setTimeout(() => settleBy(Date.now() + limits.settleMs), limits.drainMs);
    limit.unref();
    stream.once('drain', done).once('error', done).once('close', done);
  });
}
