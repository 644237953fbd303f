import type { CheckpointStore, EventStore } from '@reelstream/platform-ports';

/** One back end the EventStore contract runs against. */
export interface EventStoreUnderTest {
  /** How the test output names it: 'sqlite', 'esdb'. */
  adapter: string;
  /** What a child process passes to `openEventStore(url)` to reach the same back end. */
  url: string;
  /** A NEW client/connection on the same back end each call. */
  open(): Promise<{ store: EventStore; checkpoints: CheckpointStore }>;
  /** Removes what the suite created (files); called once after the suite. */
  dispose(): Promise<void>;
}
