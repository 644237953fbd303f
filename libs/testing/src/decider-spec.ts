/**
 * Given / when / then for deciders (emmett's DeciderSpecification): given the events already in
 * the stream, when a command is decided, then exactly these events are produced, nothing is, or
 * the command is refused with an error value.
 */
import { expect } from '@jest/globals';
import type { Decider } from '@reelstream/platform-eventsourcing';

interface DeciderThen<Event, Failure> {
  /** The decision is exactly these events, in this order. */
  then(expected: readonly Event[]): void;
  /** Nothing to do: the command was already done (or had no effect). */
  thenNothing(): void;
  /** The command is refused with an error matching `expected` (e.g. `{ code: 'BONUS_EXPIRED' }`). */
  thenFails(expected: Partial<Failure>): void;
  /** The raw decision, for checks the helpers above do not express. */
  readonly decision: readonly Event[] | Failure;
}

interface DeciderGiven<Command, Event, Failure> {
  when(command: Command): DeciderThen<Event, Failure>;
}

export interface DeciderSpecification<Command, Event, Failure> {
  given(events: readonly Event[]): DeciderGiven<Command, Event, Failure>;
}

export interface DeciderSpecificationOptions<Event> {
  /** A check every event a `then` expects must also pass, e.g. the contracts' event schema. */
  eachEvent?: (event: Event) => void;
}

export function deciderSpecification<Command, State, Event, Failure>(
  decider: Decider<Command, State, Event, Failure>,
  options: DeciderSpecificationOptions<Event> = {},
): DeciderSpecification<Command, Event, Failure> {
  return {
    given(events) {
      return {
        when(command) {
          const state = events.reduce((current, event) => decider.evolve(current, event), decider.initialState);
          const decision = decider.decide(command, state);
          const asEvents = (): readonly Event[] => {
            if (!Array.isArray(decision))
              throw new Error(`expected events, but the command was refused: ${JSON.stringify(decision)}`);
            return decision as readonly Event[];
          };
          return {
            decision,
            then(expected) {
              const events = asEvents();
              expect(events).toEqual(expected);
              if (options.eachEvent) for (const event of events) options.eachEvent(event);
            },
            thenNothing() {
              expect(asEvents()).toEqual([]);
            },
            thenFails(expected) {
              if (Array.isArray(decision))
                throw new Error(`expected a refusal, but the command produced ${JSON.stringify(decision)}`);
              expect(decision).toMatchObject(expected as Record<string, unknown>);
            },
          };
        },
      };
    },
  };
}
