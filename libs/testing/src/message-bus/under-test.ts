import type { MessageBus } from '@reelstream/ports';

/** One back end the MessageBus contract runs against. */
export interface MessageBusUnderTest {
  /** 'sqlite', 'kafka': shows in the suite's title. */
  adapter: string;
  /** What a child process passes to `openMessageBus(url, { instanceId })` to reach the same back end. */
  url: string;
  /** A new client on the same back end on every call. */
  open(options?: { instanceId?: string }): Promise<MessageBus>;
  dispose(): Promise<void>;
}
