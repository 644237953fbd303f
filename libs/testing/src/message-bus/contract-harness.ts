import { randomUUID } from 'node:crypto';
import type { Consumer, Message, MessageBus, SubscribeOptions } from '@reelstream/platform-ports';
import type { KnownBusFault, MessageBusUnderTest } from './under-test.js';

/** Generous for a shared Kafka (group joins take seconds), still bounded. */
export const WAIT_MS = 30_000;
export const CASE_TIMEOUT_MS = 90_000;

export interface Recorder {
  readonly consumer: Consumer;
  readonly messages: Message[];
  /** Attempt numbers seen, per offset key `partition/offset`. */
  readonly attempts: Map<string, number[]>;
}

export type RecordingOptions = Omit<SubscribeOptions, 'handler'> & {
  /** Runs after the message is recorded; throw to fail the delivery. */
  onMessage?: (message: Message, attempt: number) => Promise<void> | void;
};

/**
 * Per-test helpers: fresh topic and group names (the suite also runs against a long-lived Kafka),
 * and clients that are closed after each test whatever happened.
 */
export class ContractHarness {
  private readonly clients = new Set<MessageBus>();
  private readonly run = randomUUID().slice(0, 8);
  private counter = 0;

  constructor(readonly backend: MessageBusUnderTest) {}

  /**
   * True, after a loud notice, when the back end under test has `fault`: the case returns without
   * asserting (it would fail on the fault until it is fixed).
   */
  knownFault(fault: KnownBusFault, title: string): boolean {
    const reason = this.backend.knownFaults?.[fault];
    if (reason === undefined) return false;
    process.stdout.write(
      `[contract] NOT run against ${this.backend.adapter}: "${title}" (known fault ${fault}: ${reason})\n`,
    );
    return true;
  }

  name(kind: string): string {
    this.counter += 1;
    return `contract.${kind}.${this.run}.${this.counter}.${randomUUID().slice(0, 8)}`;
  }

  async open(instanceId?: string, options: { replyNumber?: number } = {}): Promise<MessageBus> {
    const bus = await this.backend.open({ ...(instanceId ? { instanceId } : {}), ...options });
    this.clients.add(bus);
    return bus;
  }

  async close(bus: MessageBus): Promise<void> {
    this.clients.delete(bus);
    await bus.close();
  }

  async closeAll(): Promise<void> {
    const clients = [...this.clients];
    this.clients.clear();
    await Promise.allSettled(clients.map((bus) => bus.close()));
  }

  /** Subscribes a handler that records every delivery, in order. */
  async record(bus: MessageBus, options: RecordingOptions): Promise<Recorder> {
    const messages: Message[] = [];
    const attempts = new Map<string, number[]>();
    const { onMessage, ...subscribe } = options;
    const consumer = await bus.subscribe({
      ...subscribe,
      handler: async (message, { attempt }) => {
        const key = `${message.partition}/${message.offset}`;
        attempts.set(key, [...(attempts.get(key) ?? []), attempt]);
        await onMessage?.(message, attempt);
        messages.push(message);
      },
    });
    await consumer.ready;
    return { consumer, messages, attempts };
  }
}

export const valuesOf = (recorder: Recorder): unknown[] => recorder.messages.map((message) => message.value);
