/**
 * A command handler bound once per kind of stream, as emmett's `CommandHandler(evolve, initialState,
 * mapToStreamId)`: the kind's decider, how an id names its stream, and how its stored events are
 * read (the parser made from the category's event types). Each use case then says only which
 * stream and which command: `playerBonusStreams.handle(store, {operatorId, playerId}, command, context)`.
 */
import type { EventStore } from '@reelstream/platform-ports';
import type { Decider } from './decider.js';
import {
  handleCommand,
  loadState,
  type CommandContext,
  type Handled,
  type HandleOptions,
  type Loaded,
  type StoredEvent,
} from './handle-command.js';

export interface StreamKind<Id, Command, State, Event, Refusal> {
  readonly decider: Decider<Command, State, Event, Refusal>;
  streamId(id: Id): string;
  /** The stream's stored event as this decider's event; throw for an event the stream must not hold. */
  parse(recorded: StoredEvent): Event;
  /** The stored form. Default: the contracts' `eventToAppend`. */
  serialize?: HandleOptions<State, Event>['serialize'];
}

/** What a caller may add to a command: the state it has just loaded, another retry policy. */
type HandleExtras<State> = Pick<HandleOptions<State, never>, 'loaded' | 'retry'>;

export interface CommandHandler<Id, Command, State, Event, Refusal> {
  streamId(id: Id): string;
  /** The stream folded with the decider, with the revision of its last event (undefined: no stream). */
  load(store: EventStore, id: Id): Promise<Loaded<State>>;
  /** load → decide → append with the expected revision, decided again on the new state after a conflict. */
  handle(
    store: EventStore,
    id: Id,
    command: Command,
    context: CommandContext,
    extras?: HandleExtras<State>,
  ): Promise<Handled<State, Event> | Refusal>;
}

export function commandHandler<Id, Command, State, Event, Refusal>(
  kind: StreamKind<Id, Command, State, Event, Refusal>,
): CommandHandler<Id, Command, State, Event, Refusal> {
  const parse = (recorded: StoredEvent) => kind.parse(recorded);
  return {
    streamId: (id) => kind.streamId(id),
    load: (store, id) => loadState(store, kind.streamId(id), kind.decider, parse),
    handle: (store, id, command, context, extras = {}) =>
      handleCommand(store, kind.streamId(id), kind.decider, command, {
        context,
        parse,
        ...(kind.serialize === undefined ? {} : { serialize: kind.serialize }),
        ...extras,
      }),
  };
}
