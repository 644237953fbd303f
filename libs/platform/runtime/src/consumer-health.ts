/**
 * Every consumer a process subscribes through its back ends, so one readiness check covers them all
 * (in the one-process platform the gateway's `/readyz` speaks for the ledger's and dispatcher's too).
 */
import type { Consumer, MessageBus } from '@reelstream/ports';

export interface ConsumerHealth {
  /** Groups of this process's consumers that are not taking messages now (crashed and being recreated, not joined). */
  unhealthy(): string[];
}

export class ConsumerRegistry implements ConsumerHealth {
  private readonly consumers = new Map<Consumer, string>();

  /** `bus` whose consumers this registry watches until they are stopped. */
  track(bus: MessageBus): MessageBus {
    const consumers = this.consumers;
    return {
      publish: (topic, messages) => bus.publish(topic, messages),
      request: (topic, message, options) => bus.request(topic, message, options),
      close: () => bus.close(),
      async subscribe(options) {
        const consumer = await bus.subscribe(options);
        consumers.set(consumer, options.groupId);
        return {
          ready: consumer.ready,
          get healthy() {
            return consumer.healthy;
          },
          async stop() {
            consumers.delete(consumer);
            await consumer.stop();
          },
        };
      },
    };
  }

  unhealthy(): string[] {
    return [...this.consumers].filter(([consumer]) => !consumer.healthy).map(([, groupId]) => groupId);
  }
}
