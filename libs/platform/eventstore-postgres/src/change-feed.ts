import pg from 'pg';
import { APPEND_CHANNEL } from './append-writer.js';

interface Waiter {
  wake: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Wakes waiting subscriptions: at once when an append commits anywhere (LISTEN on the channel
 * every append notifies), and after `pollIntervalMs` whatever happens, because an event can also
 * become visible when an older transaction that sent nothing ends (it held the watermark back).
 * One listening connection per store, opened when the first subscription waits; lost, it is
 * opened again by the next wait, and the polls carry the subscriptions meanwhile.
 */
export class ChangeFeed {
  private readonly waiters = new Set<Waiter>();
  private listener: Promise<pg.Client | undefined> | undefined;
  private closed = false;
  private notifications = 0;

  constructor(
    /** The LISTEN connection's; undefined: none, the subscriptions poll. */
    private readonly config: pg.ClientConfig | undefined,
    private readonly pollIntervalMs: number,
  ) {}

  /** A token to take before reading, so a notification between the read and `wait` is not missed. */
  version(): number {
    return this.notifications;
  }

  /**
   * Resolves on the next notification after `since`, or the next poll tick; `cancel` resolves it
   * early (used by close).
   */
  wait(since: number): { promise: Promise<void>; cancel: () => void } {
    this.listener ??= this.listen();
    if (since !== this.notifications || this.closed) return { promise: Promise.resolve(), cancel: () => undefined };
    let waiter!: Waiter;
    const promise = new Promise<void>((resolve) => {
      waiter = {
        wake: () => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          resolve();
        },
        timer: setTimeout(() => waiter.wake(), this.pollIntervalMs),
      };
    });
    this.waiters.add(waiter);
    return { promise, cancel: waiter.wake };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter.wake();
    const client = await this.listener;
    this.listener = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<pg.Client | undefined> {
    if (this.config === undefined) return undefined;
    const client = new pg.Client(this.config);
    const drop = () => {
      if (this.listener) this.listener = undefined;
      void client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', () => {
      if (!this.closed) this.listener = undefined;
    });
    client.on('notification', () => {
      this.notifications += 1;
      for (const waiter of [...this.waiters]) waiter.wake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${APPEND_CHANNEL}`);
      if (this.closed) {
        await client.end();
        return undefined;
      }
      return client;
    } catch {
      // Unreachable for now: the subscriptions poll, and the next wait tries again.
      drop();
      return undefined;
    }
  }
}
