import { randomUUID } from 'node:crypto';
import type {
  CheckpointStore,
  EventStore,
  EventToAppend,
  RecordedEvent,
  StreamFilter,
  Subscription,
} from '@reelstream/platform-ports';
import type { EventStoreUnderTest } from './under-test.js';

export interface OpenedClient {
  store: EventStore;
  checkpoints: CheckpointStore;
}

/**
 * What one test works with: its own random stream-id prefix (the suite must also run on a shared,
 * long-lived EventStoreDB, so it never assumes an empty store and reads $all only through that
 * prefix) and the clients it opened, all closed after the test.
 */
export class EventStoreHarness {
  /** `t<random>-`: a category of its own, e.g. `t3f9a…-order-1`. */
  readonly prefix = `t${randomUUID().replaceAll('-', '').slice(0, 16)}-`;
  private readonly clients: OpenedClient[] = [];
  private readonly subscriptions: Subscription[] = [];

  constructor(readonly underTest: EventStoreUnderTest) {}

  async open(): Promise<OpenedClient> {
    const client = await this.underTest.open();
    this.clients.push(client);
    return client;
  }

  stream(name: string): string {
    return `${this.prefix}${name}`;
  }

  get filter(): StreamFilter {
    return { streamPrefixes: [this.prefix] };
  }

  /** Registers a subscription so it is closed after the test even when an assertion fails first. */
  track(subscription: Subscription): SubscriptionReader {
    this.subscriptions.push(subscription);
    return new SubscriptionReader(subscription);
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled(this.subscriptions.map((subscription) => subscription.close()));
    await Promise.allSettled(this.clients.map((client) => client.store.close()));
  }
}

let sequence = 0;

/** A fresh event with a random id; `data` says which test event it is. */
export function anEvent(
  type = 'OrderPlaced',
  data: Record<string, unknown> = {},
  metadata?: EventToAppend['metadata'],
): EventToAppend & { eventId: string } {
  sequence += 1;
  return { eventId: randomUUID(), type, data: { sequence, ...data }, ...(metadata ? { metadata } : {}) };
}

/**
 * A stored checkpoint is at or past `position`: past it when the subscription's own checkpoints
 * (stretches scanned without a match, e.g. other tests' events on a shared server) moved it further.
 */
export async function expectCheckpointAtOrPast(
  store: EventStore,
  checkpoints: CheckpointStore,
  name: string,
  position: string,
): Promise<void> {
  const stored = await checkpoints.load(name);
  if (stored === undefined) throw new Error(`no checkpoint ${name} stored, expected one at or past ${position}`);
  if (store.comparePositions(stored, position) < 0)
    throw new Error(`checkpoint ${name} at ${stored} is before ${position}`);
}

/** `list[index]`, failing the test with a clear message when it is missing. */
export function at<T>(list: readonly T[], index: number): T {
  const value = index < 0 ? list[list.length + index] : list[index];
  if (value === undefined) throw new Error(`expected an element at index ${index}, the list has ${list.length}`);
  return value;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Pulls events one `next()` at a time, so a test can take some, append more, and take again. */
export class SubscriptionReader {
  private readonly iterator: AsyncIterator<RecordedEvent>;

  constructor(readonly subscription: Subscription) {
    this.iterator = subscription[Symbol.asyncIterator]();
  }

  async take(count: number, timeoutMs = 10_000): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    const deadline = Date.now() + timeoutMs;
    while (events.length < count) {
      const next = await withTimeout(this.iterator.next(), deadline - Date.now());
      if (next === 'timeout')
        throw new Error(`subscription delivered ${events.length} of ${count} events within ${timeoutMs} ms`);
      if (next.done) throw new Error(`subscription ended after ${events.length} of ${count} events`);
      events.push(next.value);
    }
    return events;
  }

  /** Resolves with what the pending or next `next()` gives: used to see the iteration end. */
  next(timeoutMs: number): Promise<IteratorResult<RecordedEvent> | 'timeout'> {
    return withTimeout(this.iterator.next(), timeoutMs);
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
