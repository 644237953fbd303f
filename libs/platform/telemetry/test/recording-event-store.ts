import { randomUUID } from 'node:crypto';
import {
  WrongExpectedRevisionError,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type Position,
  type ReadAllOptions,
  type RecordedEvent,
  type Subscription,
} from '@reelstream/platform-ports';

/**
 * A tiny in-memory EventStore that records what it was given, so a test can see exactly what a
 * decorator passed through. It keeps streams, revisions and a global order, and checks expected
 * revisions; it makes no claim to the adapters' full semantics (the port contract suite owns those).
 */
export class RecordingEventStore implements EventStore {
  readonly appended: { streamId: string; events: readonly EventToAppend[]; options: AppendOptions }[] = [];
  private readonly all: RecordedEvent[] = [];

  async append(streamId: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    this.appended.push({ streamId, events, options });
    const current = await this.streamRevision(streamId);
    const expected = options.expectedRevision;
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && current === undefined) ||
      (expected === 'stream_exists' && current !== undefined) ||
      expected === current;
    if (!ok) throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
    let revision = current ?? -1;
    for (const event of events) {
      revision += 1;
      this.all.push({
        streamId,
        revision,
        position: String(this.all.length + 1),
        eventId: event.eventId ?? randomUUID(),
        type: event.type,
        data: event.data,
        metadata: event.metadata ?? {},
        recordedAt: new Date().toISOString(),
      });
    }
    return { nextExpectedRevision: revision, position: String(this.all.length) };
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    return this.all.filter((event) => event.streamId === streamId);
  }

  async streamRevision(streamId: string): Promise<number | undefined> {
    const events = await this.readStream(streamId);
    return events.at(-1)?.revision;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.fromPosition === undefined ? 0 : Number(options.fromPosition);
    return this.all.filter((event) => Number(event.position) > after);
  }

  subscribeToAll(options: { from: Position | 'start' | 'end' }): Subscription {
    const snapshot =
      options.from === 'end'
        ? []
        : this.all.filter((event) => options.from === 'start' || Number(event.position) > Number(options.from));
    return {
      async *[Symbol.asyncIterator]() {
        yield* snapshot;
      },
      async *withCheckpoints() {
        for (const event of snapshot) yield { kind: 'event' as const, event };
      },
      close: async () => undefined,
    };
  }

  comparePositions(a: Position, b: Position): number {
    return Number(a) - Number(b);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
