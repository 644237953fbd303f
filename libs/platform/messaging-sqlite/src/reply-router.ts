import { BusHeaders, RequestTimeoutError, type Consumer, type Message } from '@reelstream/platform-ports';

interface Waiter {
  resolve: (reply: Message) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * The requester's side of request/reply: one listener per reply topic (started on first use and
 * ready before any request goes out), and the pending requests by correlation id. Replies for
 * unknown ids (another instance's, or too late) are ignored.
 */
export class ReplyRouter {
  private readonly listeners = new Map<string, Promise<Consumer>>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private closed = false;

  constructor(
    private readonly startListener: (replyTopic: string, onReply: (message: Message) => void) => Promise<Consumer>,
  ) {}

  /** Resolves once replies on `replyTopic` reach this instance. */
  async listen(replyTopic: string): Promise<void> {
    let listener = this.listeners.get(replyTopic);
    if (!listener) {
      listener = this.startListener(replyTopic, (message) => this.deliver(message));
      this.listeners.set(replyTopic, listener);
      listener.catch(() => this.listeners.delete(replyTopic));
    }
    await (
      await listener
    ).ready;
  }

  /** Registers interest before the request is published, so an instant reply is not missed. */
  expect(topic: string, correlationId: string, timeoutMs: number): { reply: Promise<Message>; cancel: () => void } {
    if (this.closed) throw new Error('message bus closed');
    let waiter!: Waiter;
    const reply = new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.forget(correlationId, waiter);
        reject(new RequestTimeoutError(topic, correlationId, timeoutMs));
      }, timeoutMs);
      waiter = { resolve, reject, timer };
    });
    const set = this.waiters.get(correlationId) ?? new Set();
    set.add(waiter);
    this.waiters.set(correlationId, set);
    return { reply, cancel: () => this.forget(correlationId, waiter) };
  }

  /** Stops every reply listener and fails the requests still waiting. */
  async close(): Promise<string[]> {
    this.closed = true;
    for (const [correlationId, set] of this.waiters) {
      for (const waiter of set) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error(`message bus closed while waiting for the reply to ${correlationId}`));
      }
    }
    this.waiters.clear();
    const consumers = await Promise.allSettled(this.listeners.values());
    await Promise.all(consumers.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
    return [...this.listeners.keys()];
  }

  private deliver(message: Message): void {
    const correlationId = message.headers[BusHeaders.correlationId];
    if (correlationId === undefined) return;
    const set = this.waiters.get(correlationId);
    if (!set) return;
    this.waiters.delete(correlationId);
    for (const waiter of set) {
      clearTimeout(waiter.timer);
      waiter.resolve(message);
    }
  }

  private forget(correlationId: string, waiter: Waiter): void {
    clearTimeout(waiter.timer);
    const set = this.waiters.get(correlationId);
    set?.delete(waiter);
    if (set?.size === 0) this.waiters.delete(correlationId);
  }
}
