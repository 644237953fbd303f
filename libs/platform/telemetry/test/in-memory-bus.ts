import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BusHeaders,
  RequestTimeoutError,
  type Consumer,
  type Message,
  type MessageBus,
  type OutgoingMessage,
  type RequestOptions,
  type SubscribeOptions,
} from '@reelstream/platform-ports';

/**
 * A tiny in-memory MessageBus for the decorator's unit tests: one partition per topic, groups
 * that poll from their own loop (so handlers run outside the publisher's async context, as with
 * a real broker), retries up to `maxAttempts`, request/reply by correlation id. The real
 * semantics live in the adapters and their contract suite; the integration test uses SQLite.
 */
export class InMemoryBus implements MessageBus {
  readonly handlerErrors: unknown[] = [];
  private readonly topics = new Map<string, Message[]>();
  private readonly loops: { stop: () => Promise<void> }[] = [];

  async publish(topic: string, messages: OutgoingMessage | readonly OutgoingMessage[]): Promise<void> {
    const log = this.topics.get(topic) ?? [];
    this.topics.set(topic, log);
    for (const message of Array.isArray(messages) ? messages : [messages as OutgoingMessage]) {
      log.push({
        topic,
        partition: 0,
        offset: String(log.length),
        key: message.key,
        value: message.value,
        headers: { ...message.headers },
        timestamp: new Date().toISOString(),
      });
    }
  }

  async subscribe(options: SubscribeOptions): Promise<Consumer> {
    let stopped = false;
    const next = new Map<string, number>();
    const maxAttempts = options.maxAttempts ?? 5;
    const loop = (async () => {
      while (!stopped) {
        for (const topic of options.topics) {
          const log = this.topics.get(topic) ?? [];
          let offset = next.get(topic) ?? 0;
          while (!stopped && offset < log.length) {
            const message = log[offset] as Message;
            for (let attempt = 1; attempt <= maxAttempts; attempt++) {
              try {
                await options.handler(message, { attempt, signal: new AbortController().signal });
                break;
              } catch (error) {
                this.handlerErrors.push(error);
              }
            }
            offset += 1;
            next.set(topic, offset);
          }
        }
        await sleep(2);
      }
    })();
    const stop = async () => {
      stopped = true;
      await loop;
    };
    this.loops.push({ stop });
    return {
      ready: Promise.resolve(),
      get healthy() {
        return !stopped;
      },
      // The only member of every group.
      share: 1,
      stop,
    };
  }

  async request(topic: string, message: OutgoingMessage, options: RequestOptions): Promise<Message> {
    const correlationId = options.correlationId ?? randomUUID();
    await this.publish(topic, {
      ...message,
      headers: {
        ...message.headers,
        [BusHeaders.correlationId]: correlationId,
        [BusHeaders.replyTo]: options.replyTopic,
      },
    });
    const deadline = Date.now() + options.timeoutMs;
    while (Date.now() < deadline) {
      const response = (this.topics.get(options.replyTopic) ?? []).find(
        (m) => m.headers[BusHeaders.correlationId] === correlationId,
      );
      if (response) return response;
      await sleep(2);
    }
    throw new RequestTimeoutError(options.replyTopic, correlationId, options.timeoutMs);
  }

  messages(topic: string): readonly Message[] {
    return this.topics.get(topic) ?? [];
  }

  async close(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }
}
