import { groupMembershipError } from './kafka-errors.js';
import { ReelstreamError } from '@reelstream/contracts';

/**
 * Heartbeats every `intervalMs` while a batch is worked on, so a handler (or a retry delay) longer than
 * the group's session timeout does not get the consumer thrown out of its group mid-work (kafkajs beats
 * on its own only between batches). A heartbeat answered with a rebalance or an unknown-member error means the partitions are
 * moving or already gone: `lost` keeps that error and `onLost` fires once, so the batch stops starting
 * work and hands the error back to kafkajs, which rejoins. On a rebalance answer the beats go on: the
 * coordinator keeps the session of a member that heartbeats while it drains its running handlers (up
 * to the rebalance timeout), and drops one that falls silent after a session timeout, handing its
 * records to another member while they still run here. An unknown-member or generation answer ends
 * them (the member is out already). Other heartbeat failures (a broken connection) are reported and
 * the next beat tries again.
 */
export class KeepAlive {
  private beating = false;
  private lostError: Error | undefined;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly heartbeat: () => Promise<void>,
    intervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly onLost: (error: Error) => void,
  ) {
    this.timer = setInterval(() => this.beat(), intervalMs);
  }

  get lost(): Error | undefined {
    return this.lostError;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private beat(): void {
    if (this.beating) return;
    this.beating = true;
    this.heartbeat()
      .catch((error: unknown) => {
        const membership = groupMembershipError(error);
        if (!membership) return this.onError(error);
        if ((membership as { type?: unknown }).type !== 'REBALANCE_IN_PROGRESS') this.stop();
        if (this.lostError) return;
        this.lostError = membership;
        this.onLost(membership);
      })
      .finally(() => {
        this.beating = false;
      });
  }
}

/** A delay that ends early when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export class HandlerTimeoutError extends ReelstreamError {
  override readonly name = 'HandlerTimeoutError';
  constructor(readonly timeoutMs: number) {
    super('SERVICE_UNAVAILABLE', `the handler did not finish within ${timeoutMs} ms`, { retriable: true });
  }
}

/**
 * Runs `work` but stops waiting for it after `timeoutMs`: the attempt then counts as failed. The
 * signal `work` gets aborts then (reason `HandlerTimeoutError`) and when `abandoned` aborts (the
 * partition was revoked), so a handler that passes it to its I/O stops instead of running on beside
 * the next attempt; one that ignores it may still finish later (handlers are idempotent). What the
 * deadline buys is that one hung key cannot hold its partition, and with it every partition kafkajs
 * fetched together, for ever.
 */
export function withDeadline<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  abandoned?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const abandon = () => controller.abort(abandoned?.reason);
  if (abandoned?.aborted) abandon();
  else abandoned?.addEventListener('abort', abandon, { once: true });
  const running = work(controller.signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new HandlerTimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  // A late failure of the abandoned call must not surface as an unhandled rejection.
  running.catch(() => undefined);
  return Promise.race([running, deadline]).finally(() => {
    clearTimeout(timer);
    abandoned?.removeEventListener('abort', abandon);
  });
}
