/**
 * Every consumer a process subscribes through its back ends, so one readiness check covers them all
 * (in the one-process platform the gateway's `/readyz` speaks for the ledger's and dispatcher's too).
 */
import type { Consumer, MessageBus } from '@reelstream/platform-ports';

export interface ConsumerHealth {
  /** Groups of this process's consumers that are not taking messages now (crashed and being recreated, not joined). */
  unhealthy(): string[];
}

/** A consumer group this process subscribed, and its topics. */
interface Subscribed {
  groupId: string;
  topics: readonly string[];
}

export class ConsumerRegistry implements ConsumerHealth {
  private readonly consumers = new Map<Consumer, string>();
  private readonly subscribed = new Map<Consumer, Subscribed>();

  /** `bus` whose consumers this registry watches until they are stopped; `onSubscribed` hears of each group joined. */
  track(bus: MessageBus, onSubscribed?: (subscribed: Subscribed) => void): MessageBus {
    const consumers = this.consumers;
    const subscribed = this.subscribed;
    return {
      publish: (topic, messages) => bus.publish(topic, messages),
      request: (topic, message, options) => bus.request(topic, message, options),
      close: () => bus.close(),
      async subscribe(options) {
        const consumer = await bus.subscribe(options);
        consumers.set(consumer, options.groupId);
        subscribed.set(consumer, { groupId: options.groupId, topics: options.topics });
        onSubscribed?.({ groupId: options.groupId, topics: options.topics });
        return {
          ready: consumer.ready,
          get healthy() {
            return consumer.healthy;
          },
          get share() {
            return consumer.share;
          },
          async stop() {
            consumers.delete(consumer);
            subscribed.delete(consumer);
            await consumer.stop();
          },
        };
      },
    };
  }

  /** The groups and topics of the consumers running now (the consumer-lag gauge reads these). */
  groups(): Subscribed[] {
    const byGroup = new Map<string, Set<string>>();
    for (const { groupId, topics } of this.subscribed.values()) {
      const known = byGroup.get(groupId) ?? new Set<string>();
      for (const topic of topics) known.add(topic);
      byGroup.set(groupId, known);
    }
    return [...byGroup].map(([groupId, topics]) => ({ groupId, topics: [...topics] }));
  }

  unhealthy(): string[] {
    return [...this.consumers].filter(([consumer]) => !consumer.healthy).map(([, groupId]) => groupId);
  }
}
