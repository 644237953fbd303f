/**
 * The command handler, the one way a stream is changed: load → fold → decide → append with the
 * expected revision. A concurrent writer makes the append fail with WrongExpectedRevision; the
 * stream is then read again and the command decided again on the new state (that is how 50
 * concurrent registrations for one player end with exactly one accepted). A refusal is returned,
 * not thrown: it is an answer, and nothing was appended.
 *
 * A stream this process changed or read before is decided first on its cached state (state-cache.ts)
 * without reading the stream: the append's expected revision is the check, as in emmett's cached
 * handler. Events to append on a stale state are refused by the store (a conflict, decided again on
 * the stream as read); a refusal or "already done" on the cached state is given only after the
 * stream is read and says the same, since only the stream's latest state may refuse.
 */
import { eventToAppend, type DomainEvent, type EventContext, type EventMetadata } from '@reelstream/contracts';
import type { EventStore, RecordedEvent, StreamRevision } from '@reelstream/platform-ports';
import { fold, isAccepted, type Decider } from './decider.js';
import { eventIdOfJson } from './event-id.js';
import { retryOnConflict, type RetryPolicy } from './retry.js';
import { cachedState, cacheState } from './state-cache.js';

/** What a parser reads of a stored event: its stream, type, data and metadata. */
export type StoredEvent = Pick<RecordedEvent, 'streamId' | 'type' | 'data' | 'metadata'>;

/** What every appended event's metadata is built from. */
export interface CommandContext {
  /** Kept by every retry of the command (it seeds the event ids, see event-id.ts). */
  readonly commandId: string;
  readonly correlationId: string;
  /** Defaults to `commandId`. */
  readonly causationId?: string;
  readonly operatorId: string;
  /** When the events happened: the command's time, never the time of the write. */
  readonly occurredAt: string;
  readonly traceparent?: string;
  readonly tracestate?: string;
}

/** A state already folded from the stream, with the revision of its last event (undefined: no stream). */
export interface Loaded<State> {
  readonly state: State;
  readonly revision: StreamRevision | undefined;
}

export interface Handled<State, Event> extends Loaded<State> {
  /** What was appended; empty when the command was already done. */
  readonly events: readonly Event[];
}

export interface HandleOptions<State, Event> {
  readonly context: CommandContext;
  /** The stream's stored event as this decider's event; undefined skips it; throw for a stream that must not hold it. */
  parse(recorded: StoredEvent): Event | undefined;
  /** The stored form. Default: the contracts' `eventToAppend` (validated data, `schemaVersion` stamped). */
  serialize?(event: Event, metadata: EventContext): { type: string; data: unknown; metadata: EventMetadata };
  /** State the caller has just loaded: the first attempt decides on it instead of reading the stream again. */
  loaded?: Loaded<State>;
  retry?: Partial<RetryPolicy>;
}

const contractEvent = <Event>(event: Event, metadata: EventContext) => eventToAppend(event as DomainEvent, metadata);

/**
 * Reads the stream and folds it with the decider: from the state this process folded last time
 * (state-cache.ts), reading only the events appended since, or from the start.
 */
export async function loadState<State, Event>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<never, State, Event, unknown>, 'initialState' | 'evolve'>,
  parse: (recorded: StoredEvent) => Event | undefined,
): Promise<Loaded<State>> {
  const cached = cachedState<State>(store, decider, parse, streamId);
  const recorded = await store.readStream(streamId, cached ? { fromRevision: cached.revision + 1 } : undefined);
  let state = cached?.state ?? decider.initialState;
  for (const stored of recorded) {
    const event = parse(stored);
    if (event !== undefined) state = decider.evolve(state, event);
  }
  const revision = recorded.at(-1)?.revision ?? cached?.revision;
  if (revision !== undefined) cacheState(store, decider, parse, streamId, { state, revision });
  return { state, revision };
}

export async function handleCommand<Command, State, Event, Refusal>(
  store: EventStore,
  streamId: string,
  decider: Decider<Command, State, Event, Refusal>,
  command: Command,
  options: HandleOptions<State, Event>,
): Promise<Handled<State, Event> | Refusal> {
  const { context } = options;
  const serialize = options.serialize ?? contractEvent;
  // Frozen: the contracts validate a frozen context once for all the events of the command (eventToAppend).
  const metadata: EventContext = Object.freeze({
    correlationId: context.correlationId,
    causationId: context.causationId ?? context.commandId,
    operatorId: context.operatorId,
    occurredAt: context.occurredAt,
    ...(context.traceparent === undefined ? {} : { traceparent: context.traceparent }),
    ...(context.tracestate === undefined ? {} : { tracestate: context.tracestate }),
  });
  let preloaded = options.loaded;
  let cached = preloaded === undefined ? cachedState<State>(store, decider, options.parse, streamId) : undefined;
  return retryOnConflict(
    streamId,
    async () => {
      let loaded = preloaded ?? cached ?? (await loadState(store, streamId, decider, options.parse));
      let decision = decider.decide(command, loaded.state);
      if (loaded === cached && (!isAccepted(decision) || decision.length === 0)) {
        loaded = await loadState(store, streamId, decider, options.parse);
        decision = decider.decide(command, loaded.state);
      }
      preloaded = cached = undefined;
      const { state, revision } = loaded;
      if (!isAccepted(decision)) return decision;
      if (decision.length === 0) return { state, revision, events: [] };
      const expected = revision ?? 'no_stream';
      // Each event's data is written as JSON once: its id hashes that JSON, and the cached state folds it parsed.
      const dataJson: string[] = [];
      const toAppend = decision.map((event, index) => {
        const stored = serialize(event, metadata);
        const json = JSON.stringify(stored.data);
        dataJson.push(json);
        return { eventId: eventIdOfJson(context.commandId, streamId, expected, index, stored.type, json), ...stored };
      });
      const result = await store.append(streamId, toAppend, { expectedRevision: expected });
      const next = { state: fold(decider, state, decision), revision: result.nextExpectedRevision };
      // Cached as a reader of the stream would fold it: the stored JSON, parsed.
      cacheState(store, decider, options.parse, streamId, {
        state: toAppend.reduce((folded, event, index) => {
          const parsed = options.parse(storedForm(streamId, event, dataJson[index] as string));
          return parsed === undefined ? folded : decider.evolve(folded, parsed);
        }, state),
        revision: next.revision,
      });
      return { ...next, events: decision };
    },
    options.retry,
  );
}

/**
 * An event as a reader of the store gets it: its data parsed from the JSON written. The metadata is
 * the contracts' validated object of strings and numbers, which JSON keeps as it is.
 */
function storedForm(streamId: string, event: { type: string; metadata: EventMetadata }, dataJson: string): StoredEvent {
  return { streamId, type: event.type, data: JSON.parse(dataJson) as unknown, metadata: event.metadata };
}
