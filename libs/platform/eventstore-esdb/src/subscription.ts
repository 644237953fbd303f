import type { AllStreamResolvedEvent, AllStreamSubscription, Position as ClientPosition } from '@eventstore/db-client';
import {
  eventsOf,
  type RecordedEvent,
  type StreamFilter,
  type Subscription,
  type SubscriptionItem,
} from '@reelstream/platform-ports';
import { encodePosition, isPast, type EsdbPosition } from './position.js';
import { allPositionOf, toVisibleAllEvent } from './recorded-event.js';
import { ReelstreamError } from '@reelstream/contracts';

/** A checkpoint the server sent while its filter skipped events, in its place among them. */
export class ServerCheckpoint {
  constructor(readonly position: EsdbPosition) {}
}

/**
 * The filter's `checkpointReached`. The client calls it from its stream's transform, awaited before
 * the next response, after the events before the checkpoint were pushed; pushing the checkpoint into
 * the same stream keeps it behind them (a position recorded aside could run ahead of buffered events).
 */
export function pushCheckpoint(subscription: AllStreamSubscription, position: ClientPosition): void {
  subscription.push(new ServerCheckpoint(position));
}

/** What the adapter needs of the client's `AllStreamSubscription` (a Node readable in object mode). */
export interface ResolvedEventSource extends AsyncIterable<AllStreamResolvedEvent | ServerCheckpoint> {
  unsubscribe(): Promise<void>;
  destroy(error?: Error): unknown;
}

export class SubscriptionDroppedError extends ReelstreamError {
  override readonly name = 'SubscriptionDroppedError';
  constructor() {
    super('SERVICE_UNAVAILABLE', 'the EventStoreDB subscription ended without being closed', { retriable: true });
  }
}

/**
 * The port's `Subscription` over a catch-up subscription to `$all`.
 *
 * Consumed with `for await`, so the next event is pulled only after the handler finished (handlers on
 * the stream's `data` event would not be awaited). Events at or before `after` are dropped because the
 * port's start is exclusive whatever the server does; system events, checkpoints and events outside the
 * filter are dropped too. A source that fails or ends on its own makes the iteration throw, so
 * `startCatchUp` resubscribes from its last handled position after its retry delay.
 *
 * The server's checkpoints become the port's, when they are past both the start and the last
 * checkpoint (the server may send one behind an event it already sent), and only once something
 * past them arrived. Some server versions send a checkpoint equal to the position of an event not
 * yet delivered (at the end of the log: KurrentDB#4970); stored and resumed from, that position is
 * exclusive and the event is never delivered. So a checkpoint is held until the next item: an event
 * at its very position goes first and makes it redundant, anything later proves nothing lies
 * unread at or before it. A quiet subscription's last checkpoint is therefore not stored until the
 * log moves on; a restart then rescans from the last handled event, which only costs reading.
 */
export class EsdbSubscription implements Subscription {
  private closed = false;
  private released = false;

  constructor(
    private readonly source: ResolvedEventSource,
    private readonly after: EsdbPosition | undefined,
    private readonly filter?: StreamFilter,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return eventsOf(this.items());
  }

  withCheckpoints(): AsyncIterable<SubscriptionItem> {
    return this.items();
  }

  private async *items(): AsyncGenerator<SubscriptionItem> {
    if (this.closed) return;
    let bound = this.after;
    let scanned = this.after;
    /** The last server checkpoint, until an item past it shows nothing at or before it is unread. */
    let held: EsdbPosition | undefined;
    try {
      for await (const item of this.source) {
        if (this.closed) return;
        if (item instanceof ServerCheckpoint) {
          if (scanned && !isPast(item.position, scanned, 'forwards')) continue;
          scanned = item.position;
          if (held) yield { kind: 'checkpoint', position: encodePosition(held) };
          held = item.position;
          continue;
        }
        const position = allPositionOf(item);
        if (position && bound && !isPast(position, bound, 'forwards')) continue;
        if (position) bound = position;
        if (held && position) {
          // An event at the checkpoint's own position: its position, once handled, is the checkpoint.
          if (isPast(position, held, 'forwards')) yield { kind: 'checkpoint', position: encodePosition(held) };
          held = undefined;
        }
        const event = toVisibleAllEvent(item, this.filter);
        if (event) yield { kind: 'event', event };
        if (this.closed) return;
      }
    } catch (error) {
      if (this.closed) return;
      throw error;
    } finally {
      await this.release();
    }
    if (!this.closed) throw new SubscriptionDroppedError();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.release();
  }

  private async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    // A failed unsubscribe means the call is already gone (its failure reached the iterator, or the
    // connection never came up); destroying the source below is what releases it either way.
    await this.source.unsubscribe().catch(() => undefined);
    // Ends a `for await` that is waiting for the next event; the iterator sees `closed` and returns.
    this.source.destroy();
  }
}

/**
 * A source for `from: 'end'`: the head of `$all` is read first (the read starts when the caller
 * subscribes) and the subscription starts from that position, delivering only what lies past it.
 * Subscribing to the server's own `END` instead would fix the start only when the gRPC call reaches
 * the server, after `subscribeToAll` has returned, so an append made right after could be missed.
 */
export class FromHeadSource implements ResolvedEventSource {
  private source: ResolvedEventSource | undefined;
  private cancelled = false;

  constructor(
    private readonly head: Promise<EsdbPosition | undefined>,
    private readonly open: (from: EsdbPosition | undefined) => ResolvedEventSource,
  ) {
    // Whoever iterates sees a failed head read; nobody iterating must not crash the process.
    head.catch(() => undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<AllStreamResolvedEvent | ServerCheckpoint> {
    const head = await this.head;
    if (this.cancelled) return;
    this.source = this.open(head);
    for await (const item of this.source) {
      const position = item instanceof ServerCheckpoint ? item.position : allPositionOf(item);
      if (head && position && !isPast(position, head, 'forwards')) continue;
      yield item;
    }
  }

  async unsubscribe(): Promise<void> {
    this.cancelled = true;
    await this.source?.unsubscribe();
  }

  destroy(error?: Error): void {
    this.cancelled = true;
    this.source?.destroy(error);
  }
}
