import { groupMembershipError } from './kafka-errors.js';
import { ReelstreamError } from '@reelstream/contracts';

/**
 * Heartbeats every `intervalMs` while a batch is worked on, so a handler (or a retry delay) longer than
 * the group's session timeout does not get the consumer thrown out of its group mid-work (kafkajs issue
 * #1046). A heartbeat answered with a rebalance or an unknown-member error means the partitions are
 * moving or already gone: `lost` keeps that error and `onLost` fires once, so the batch stops starting
 * work and hands the error back to kafkajs, which rejoins. Other heartbeat failures (a broken connection)
 * are reported and the next beat tries again.
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
    if (this.beating || this.lostError) return;
    this.beating = true;
    this.heartbeat()
      .catch((error: unknown) => {
        const membership = groupMembershipError(error);
        if (!membership) return this.onError(error);
        this.lostError = membership;
        this.stop();
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
 * Runs `work` but stops waiting for it after `timeoutMs`: the attempt then counts as failed. JavaScript
 * cannot cancel the abandoned call, which may still finish later (handlers are idempotent); what the
 * deadline buys is that one hung key cannot hold its partition, and with it every partition kafkajs
 * fetched together, for ever.
 */
export function withDeadline<T>(work: () => Promise<T>, timeoutMs: number): Promise<T> {
  const running = work();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HandlerTimeoutError(timeoutMs)), timeoutMs);
  });
  // A late failure of the abandoned call must not surface as an unhandled rejection.
  running.catch(() => undefined);
  return Promise.race([running, deadline]).finally(() => clearTimeout(timer));
}
