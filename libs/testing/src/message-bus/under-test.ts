import type { MessageBus } from '@reelstream/platform-ports';

/** One back end the MessageBus contract runs against. */
export interface MessageBusUnderTest {
  /** 'sqlite', 'kafka': shows in the suite's title. */
  adapter: string;
  /** What a child process passes to `openMessageBus(url, { instanceId })` to reach the same back end. */
  url: string;
  /** A new client on the same back end on every call; `replyNumber` picks the partition of each reply topic it reads. */
  open(options?: { instanceId?: string; replyNumber?: number }): Promise<MessageBus>;
  dispose(): Promise<void>;
  /**
   * Faults of the adapter known and not fixed yet, with the reason: the cases that would fail on them
   * say so loudly and stop instead of failing the run (each names the fault it waits for).
   */
  knownFaults?: Partial<Record<KnownBusFault, string>>;
}

/**
 * `fetch-held-by-slow-key`: a message whose handler is slow, or retried in place (keyConcurrency > 1),
 * holds back every other partition fetched with it (kafkajs fetches a broker's partitions again only
 * once the whole last fetch was handled), so keyConcurrency cannot let other keys pass it on one broker.
 */
export type KnownBusFault = 'fetch-held-by-slow-key';
