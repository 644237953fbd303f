/**
 * Folded stream states kept between commands, so a command reads only the events appended since
 * (a player's bonus stream gains two events per free spin, and reading and folding all
 * of it for every command made a spin's cost grow with the player's history).
 *
 * Safe because a cached state is only a starting point: a command's events are appended with the
 * cached revision as the expected one, so a writer in another process or replica makes the append a
 * conflict (read again, decide again), and a refusal or "already done" is given only after the
 * events after the cached revision are read (handle-command.ts). States are immutable
 * (deciders' `evolve` returns new objects), so sharing one between commands cannot leak changes.
 * One cache per store, decider and parse function: the same stream folded by another decider is
 * another state.
 */
import type { EventStore, StreamRevision } from '@reelstream/platform-ports';

export interface CachedState<State> {
  readonly state: State;
  readonly revision: StreamRevision;
}

/** Streams per store, decider and parse function; the least recently used goes first. */
const STREAMS_CACHED = 10_000;

type Parse = (recorded: never) => unknown;
const caches = new WeakMap<EventStore, WeakMap<object, WeakMap<Parse, Map<string, CachedState<unknown>>>>>();

function cacheOf(store: EventStore, decider: object, parse: Parse): Map<string, CachedState<unknown>> {
  let byDecider = caches.get(store);
  if (!byDecider) caches.set(store, (byDecider = new WeakMap()));
  let byParse = byDecider.get(decider);
  if (!byParse) byDecider.set(decider, (byParse = new WeakMap()));
  let streams = byParse.get(parse);
  if (!streams) byParse.set(parse, (streams = new Map()));
  return streams;
}

export function cachedState<State>(
  store: EventStore,
  decider: object,
  parse: Parse,
  streamId: string,
): CachedState<State> | undefined {
  const streams = cacheOf(store, decider, parse);
  const cached = streams.get(streamId);
  if (cached) {
    // Most recently used last.
    streams.delete(streamId);
    streams.set(streamId, cached);
  }
  return cached as CachedState<State> | undefined;
}

export function cacheState<State>(
  store: EventStore,
  decider: object,
  parse: Parse,
  streamId: string,
  entry: CachedState<State>,
): void {
  const streams = cacheOf(store, decider, parse);
  const known = streams.get(streamId);
  // Never step back: a slower command may finish after a newer state was cached.
  if (known && known.revision >= entry.revision) return;
  streams.delete(streamId);
  streams.set(streamId, entry);
  if (streams.size > STREAMS_CACHED) {
    const oldest = streams.keys().next().value;
    if (oldest !== undefined) streams.delete(oldest);
  }
}
