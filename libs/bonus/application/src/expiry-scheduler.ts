/**
 * Expires bonus calls at their expireAt (docs/architecture.md flow 6): one timer, set to the earliest expireAt
 * of the active-by-expiry index, and a sweep of everything already due whenever it runs — on
 * start, so a ledger that was down across an expireAt expires the bonus as soon as it is back.
 * Whoever else expires the same bonus (another ledger instance, a registration) is harmless:
 * the decider answers "already done".
 */
import type { Clock } from '@reelstream/platform-ports';
import type { BonusReadModel, ExpiryTarget } from './ports.js';

export interface ExpirySchedulerOptions {
  readModel: Pick<BonusReadModel, 'dueForExpiry' | 'nextExpiry'>;
  clock: Clock;
  /** Expires one bonus call (decide and append). */
  expire: (target: ExpiryTarget) => Promise<unknown>;
  onError?: (error: unknown, target?: ExpiryTarget) => void;
  /** Longest sleep between looks at the index, so a stepped clock is noticed. Default 30 s. */
  maxSleepMs?: number;
  /** Wait after a failed expiry or while the read model still shows an expired bonus active. Default 100 ms. */
  retryDelayMs?: number;
  /** Bonus calls expired per look. Default 100. */
  batchSize?: number;
}

export class ExpiryScheduler {
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (epoch ms). */
  private wakeAt = Number.POSITIVE_INFINITY;
  private running: Promise<void> | undefined;
  private busy = false;
  private again = false;
  private stopped = false;
  /** Bonus calls just expired, until the read model shows it: not expired twice meanwhile. */
  private readonly recentlyExpired = new Map<number, number>();
  private readonly maxSleepMs: number;
  private readonly retryDelayMs: number;
  private readonly batchSize: number;

  constructor(private readonly options: ExpirySchedulerOptions) {
    this.maxSleepMs = options.maxSleepMs ?? 30_000;
    this.retryDelayMs = options.retryDelayMs ?? 100;
    this.batchSize = options.batchSize ?? 100;
  }

  /** Sweeps what is due now and arms the timer. */
  start(): void {
    this.kick();
  }

  /** The index changed: a bonus active until `expireAt` may now be the next one due. */
  poke(expireAt?: string): void {
    if (expireAt !== undefined && Date.parse(expireAt) >= this.wakeAt) return;
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.disarm();
    await this.running;
  }

  private kick(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.running = this.loop();
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.again = false;
        this.disarm();
        let delay: number;
        try {
          delay = await this.sweep();
        } catch (error) {
          this.options.onError?.(error);
          delay = this.retryDelayMs;
        }
        if (!this.stopped && !this.again) this.arm(delay);
      } while (this.again && !this.stopped);
    } finally {
      // Cleared in the same turn as the last `again` check, so a kick in between is never lost.
      this.busy = false;
    }
  }

  /** Expires what is due; returns how long to sleep before the next look. */
  private async sweep(): Promise<number> {
    const now = this.options.clock.now().getTime();
    for (const [issueId, until] of this.recentlyExpired) if (until <= now) this.recentlyExpired.delete(issueId);

    const due = await this.options.readModel.dueForExpiry(new Date(now).toISOString(), this.batchSize);
    let pending = false;
    for (const target of due) {
      if (this.stopped) return this.retryDelayMs;
      if (this.recentlyExpired.has(target.issueId)) {
        pending = true;
        continue;
      }
      try {
        await this.options.expire(target);
        this.recentlyExpired.set(target.issueId, now + 5_000);
      } catch (error) {
        this.options.onError?.(error, target);
      }
      pending = true;
    }
    // Something was due: look again shortly (more due, a failure to retry, or the read model
    // still catching up with the expiries just written).
    if (pending) return this.retryDelayMs;
    const next = await this.options.readModel.nextExpiry();
    if (next === undefined) return this.maxSleepMs;
    return Math.min(this.maxSleepMs, Math.max(0, Date.parse(next) - this.options.clock.now().getTime()));
  }

  private arm(delayMs: number): void {
    this.wakeAt = this.options.clock.now().getTime() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wakeAt = Number.POSITIVE_INFINITY;
      this.kick();
    }, delayMs);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
  }
}
