/**
 * A decider (emmett's, Jérémie Chassaing's): the rules of one kind of stream as three pure parts.
 * `decide` returns the events the command causes, `[]` when it was already done (so a retried
 * command is harmless), or a refusal value (anything that is not an array).
 */
export interface Decider<Command, State, Event, Refusal = never> {
  readonly initialState: State;
  decide(command: Command, state: State): readonly Event[] | Refusal;
  evolve(state: State, event: Event): State;
}

/** The events a decision produced; false for a refusal. */
export function isAccepted<Event, Refusal>(decision: readonly Event[] | Refusal): decision is readonly Event[] {
  return Array.isArray(decision);
}

export function fold<State, Event>(
  decider: Pick<Decider<never, State, Event, unknown>, 'evolve'>,
  state: State,
  events: readonly Event[],
): State {
  return events.reduce((current, event) => decider.evolve(current, event), state);
}

/**
 * The decider of a batch of commands decided one after the other, each on the state the previous
 * ones left, their events appended together (one write, one fsync). A refusal of any command
 * refuses the batch: nothing is appended.
 */
export function inSequence<Command, State, Event, Refusal>(
  decider: Decider<Command, State, Event, Refusal>,
): Decider<readonly Command[], State, Event, Refusal> {
  return {
    initialState: decider.initialState,
    evolve: (state, event) => decider.evolve(state, event),
    decide(commands, state) {
      const events: Event[] = [];
      let current = state;
      for (const command of commands) {
        const decision = decider.decide(command, current);
        if (!isAccepted(decision)) return decision;
        events.push(...decision);
        current = fold(decider, current, decision);
      }
      return events;
    },
  };
}
