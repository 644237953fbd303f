/**
 * The `round-{roundId}` streams: RoundStarted, then exactly one of RoundSettled or RoundCanceled.
 * Both writes check the revision, so when two hands finish the same round (a spin that gave up
 * waiting and the resolver that took it over) one wins and the other reads what it wrote.
 */
import {
  eventToAppend,
  parseStoredEvent,
  roundStream,
  type RoundCanceled,
  type RoundSettled,
  type RoundStarted,
} from '@reelstream/contracts';
import { isWrongExpectedRevision, type Clock, type EventStore } from '@reelstream/ports';

export type RoundStartedData = RoundStarted['data'];
export type RoundEnd = RoundSettled | RoundCanceled;

export interface RoundHistory {
  readonly started: RoundStartedData;
  readonly end?: RoundEnd;
}

export class RoundConflictError extends Error {
  override readonly name = 'RoundConflictError';
}

export class RoundStreams {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async start(data: RoundStartedData, correlationId: string): Promise<void> {
    await this.store.append(
      roundStream(data.roundId),
      [eventToAppend({ type: 'RoundStarted', data }, this.context(data, correlationId))],
      { expectedRevision: 'no_stream' },
    );
  }

  /** Appends the round's end, or returns the end another writer appended first. */
  async finish(started: RoundStartedData, end: RoundEnd, correlationId: string): Promise<RoundHistory> {
    try {
      await this.store.append(
        roundStream(started.roundId),
        [eventToAppend(end, this.context(started, correlationId))],
        { expectedRevision: 0 },
      );
      return { started, end };
    } catch (error) {
      if (!isWrongExpectedRevision(error)) throw error;
      const history = await this.load(started.roundId);
      if (!history?.end)
        throw new RoundConflictError(`round ${started.roundId} moved on but has no end`, { cause: error });
      return history;
    }
  }

  async load(roundId: number): Promise<RoundHistory | undefined> {
    let started: RoundStartedData | undefined;
    let end: RoundEnd | undefined;
    for (const recorded of await this.store.readStream(roundStream(roundId))) {
      const event = parseStoredEvent(recorded);
      if (event.type === 'RoundStarted') started = event.data;
      else if (event.type === 'RoundSettled' || event.type === 'RoundCanceled') end ??= event;
    }
    if (!started) return undefined;
    return end ? { started, end } : { started };
  }

  private context(round: RoundStartedData, correlationId: string) {
    return {
      correlationId,
      causationId: correlationId,
      operatorId: round.operatorId,
      occurredAt: this.clock.now().toISOString(),
    };
  }
}
