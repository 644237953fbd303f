import { BusHeaders, RequestTimeoutError, type Message } from '@reelstream/platform-ports';

export interface PendingReply {
  reply: Promise<Message>;
  cancel(error: unknown): void;
}

interface Waiter {
  resolve(message: Message): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Requests waiting for their reply, by correlation id. A retried request may reuse its correlation id
 * while the first is still waiting: both get the reply. Replies nobody waits for (another instance's, or
 * a late one after its timeout) are ignored.
 */
export class PendingRequests {
  private readonly waiting = new Map<string, Waiter[]>();

  /**
   * Starts waiting: `reply` rejects with `RequestTimeoutError` (naming the topic the request went to)
   * after `timeoutMs`; `cancel` gives up on
   * this one request (it could not be sent) without touching others with the same correlation id.
   */
  register(correlationId: string, requestTopic: string, timeoutMs: number): PendingReply {
    let cancel: (error: unknown) => void = () => undefined;
    const reply = new Promise<Message>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.remove(correlationId, waiter);
          reject(new RequestTimeoutError(requestTopic, correlationId, timeoutMs));
        }, timeoutMs),
      };
      cancel = (error) => {
        clearTimeout(waiter.timer);
        this.remove(correlationId, waiter);
        reject(error);
      };
      this.waiting.set(correlationId, [...(this.waiting.get(correlationId) ?? []), waiter]);
    });
    return { reply, cancel };
  }

  /** Hands a reply to whoever waits for its correlation id; false when nobody does. */
  settle(reply: Message): boolean {
    const correlationId = reply.headers[BusHeaders.correlationId];
    if (correlationId === undefined) return false;
    const waiters = this.waiting.get(correlationId);
    if (!waiters) return false;
    this.waiting.delete(correlationId);
    for (const waiter of waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(reply);
    }
    return true;
  }

  /** Gives up on everything (the bus is closing). */
  failAll(error: unknown): void {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const waiter of all) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }

  get size(): number {
    let count = 0;
    for (const waiters of this.waiting.values()) count += waiters.length;
    return count;
  }

  private remove(correlationId: string, waiter: Waiter): void {
    const rest = (this.waiting.get(correlationId) ?? []).filter((candidate) => candidate !== waiter);
    if (rest.length > 0) this.waiting.set(correlationId, rest);
    else this.waiting.delete(correlationId);
  }
}
