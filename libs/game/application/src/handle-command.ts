/**
 * Stand-in for `handleCommand` of @reelstream/eventsourcing (issue 11 point 1), with its agreed
 * signature, until that library is merged: load → fold → decide → append with the expected
 * revision → on WrongExpectedRevision read again and decide again (jittered after 3 attempts).
 * A refusal (anything that is not an array) is returned, not thrown.
 */
import { isWrongExpectedRevision, type EventStore, type RecordedEvent, type StreamRevision } from '@reelstream/ports';
import { eventToAppend, type DomainEvent } from '@reelstream/contracts';

export interface Decider<Command, State, Event, Refusal = never> {
  readonly initialState: State;
  decide(command: Command, state: State): readonly Event[] | Refusal;
  evolve(state: State, event: Event): State;
}

export interface CommandContext {
  readonly commandId: string;
  readonly correlationId: string;
  readonly causationId?: string;
  readonly operatorId: string;
  readonly occurredAt: string;
}

export interface Handled<State, Event> {
  readonly state: State;
  readonly revision: StreamRevision | undefined;
  readonly events: readonly Event[];
}

export interface HandleOptions<Event> {
  readonly context: CommandContext;
  parse(recorded: RecordedEvent): Event | undefined;
  readonly maxAttempts?: number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function handleCommand<Command, State, Event extends DomainEvent, Refusal>(
  store: EventStore,
  streamId: string,
  decider: Decider<Command, State, Event, Refusal>,
  command: Command,
  options: HandleOptions<Event>,
): Promise<Handled<State, Event> | Refusal> {
  const { context } = options;
  const metadata = {
    correlationId: context.correlationId,
    causationId: context.causationId ?? context.commandId,
    operatorId: context.operatorId,
    occurredAt: context.occurredAt,
  };
  const maxAttempts = options.maxAttempts ?? 100;
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(streamId);
    let state = decider.initialState;
    for (const stored of recorded) {
      const event = options.parse(stored);
      if (event !== undefined) state = decider.evolve(state, event);
    }
    const revision = recorded.at(-1)?.revision;
    const decision = decider.decide(command, state);
    if (!Array.isArray(decision)) return decision as Refusal;
    const events = decision as readonly Event[];
    if (events.length === 0) return { state, revision, events };
    try {
      const result = await store.append(
        streamId,
        events.map((event) => eventToAppend(event, metadata)),
        { expectedRevision: revision ?? 'no_stream' },
      );
      return { state: events.reduce(decider.evolve, state), revision: result.nextExpectedRevision, events };
    } catch (error) {
      if (!isWrongExpectedRevision(error) || attempt >= maxAttempts) throw error;
      if (attempt > 3) await pause(Math.random() * Math.min(20, attempt));
    }
  }
}
