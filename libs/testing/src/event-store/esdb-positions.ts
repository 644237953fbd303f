/**
 * An EventStore that hands out positions shaped like EventStoreDB's (`commit-prepare` pairs of
 * unpadded decimals) over another store whose positions are decimal sequence numbers (the SQLite
 * store's). Its positions order only through its own `comparePositions`: their string order is
 * deliberately wrong (`"9-8"` sorts after `"10-9"`, the first two events), and they are not
 * decimals, so any code that orders positions by string, by number or with the SQLite store's
 * comparison instead of asking the store fails at once. Test-only: the contract suite and the
 * platform e2e suite run through it.
 */
import { openEventStore, type OpenedEventStore } from '@reelstream/platform-backends';
import {
  eventsOf,
  type CheckpointStore,
  type EventStore,
  type LeasesAndFencedCheckpoints,
  type Position,
  type ReadAllOptions,
  type RecordedEvent,
  type Subscription,
  type SubscribeToAllOptions,
  type SubscriptionItem,
} from '@reelstream/platform-ports';
import { ReelstreamError } from '@reelstream/contracts';

/** `EVENT_STORE_URL` scheme the test workers understand: the SQLite store at `<path>` behind this wrapper. */
export const ESDB_POSITIONS_SCHEME = 'sqlite+esdbpositions:';

// The first event (sequence 1) gets commit 9, the second commit 10: string order fails on the first pair.
const COMMIT_OFFSET = 8n;
const ENCODED = /^([1-9][0-9]*)-([0-9]+)$/;

/** Not retriable: the position was not written by this store. */
class NotAnEsdbShapedPositionError extends ReelstreamError {
  override readonly name = 'NotAnEsdbShapedPositionError';
  constructor(readonly position: unknown) {
    super('INTERNAL', `not a position of this store (commit-prepare): ${JSON.stringify(position)}`, {
      retriable: false,
    });
  }
}

/** The inner store's decimal sequence number → `commit-prepare`, prepare just before commit as in a one-event transaction. */
export function encodeEsdbShapedPosition(inner: Position): Position {
  if (!/^(0|[1-9][0-9]*)$/.test(inner)) throw new NotAnEsdbShapedPositionError(inner);
  const commit = BigInt(inner) + COMMIT_OFFSET;
  return `${commit}-${commit - 1n}`;
}

export function decodeEsdbShapedPosition(position: Position): Position {
  const match = ENCODED.exec(position);
  if (!match?.[1] || !match[2]) throw new NotAnEsdbShapedPositionError(position);
  const commit = BigInt(match[1]);
  if (commit < COMMIT_OFFSET || BigInt(match[2]) !== commit - 1n) throw new NotAnEsdbShapedPositionError(position);
  return String(commit - COMMIT_OFFSET);
}

/** EventStoreDB's order: commit first, then prepare, as numbers. */
export function compareEsdbShapedPositions(a: Position, b: Position): number {
  const [ca, pa] = parts(a);
  const [cb, pb] = parts(b);
  if (ca !== cb) return ca < cb ? -1 : 1;
  if (pa !== pb) return pa < pb ? -1 : 1;
  return 0;
}

function parts(position: Position): [bigint, bigint] {
  decodeEsdbShapedPosition(position);
  const [commit, prepare] = position.split('-');
  return [BigInt(commit ?? ''), BigInt(prepare ?? '')];
}

const encodeEvent = (event: RecordedEvent): RecordedEvent => ({
  ...event,
  position: encodeEsdbShapedPosition(event.position),
});

function encodeSubscription(inner: Subscription): Subscription {
  async function* items(): AsyncGenerator<SubscriptionItem> {
    for await (const item of inner.withCheckpoints()) {
      yield item.kind === 'event'
        ? { kind: 'event', event: encodeEvent(item.event) }
        : { kind: 'checkpoint', position: encodeEsdbShapedPosition(item.position) };
    }
  }
  return {
    close: () => inner.close(),
    withCheckpoints: items,
    [Symbol.asyncIterator]: () => eventsOf(items()),
  };
}

/** `inner` (decimal positions) seen through EventStoreDB-shaped positions. */
export function withEsdbShapedPositions(inner: EventStore): EventStore {
  return {
    async append(streamId, events, options) {
      const result = await inner.append(streamId, events, options);
      return { ...result, position: encodeEsdbShapedPosition(result.position) };
    },
    async readStream(streamId, options) {
      return (await inner.readStream(streamId, options)).map(encodeEvent);
    },
    streamRevision: (streamId) => inner.streamRevision(streamId),
    async readAll(options?: ReadAllOptions) {
      const { fromPosition, ...rest } = options ?? {};
      const translated =
        fromPosition === undefined ? rest : { ...rest, fromPosition: decodeEsdbShapedPosition(fromPosition) };
      return (await inner.readAll(translated)).map(encodeEvent);
    },
    subscribeToAll(options: SubscribeToAllOptions) {
      const from =
        options.from === 'start' || options.from === 'end' ? options.from : decodeEsdbShapedPosition(options.from);
      return encodeSubscription(inner.subscribeToAll({ ...options, from }));
    },
    comparePositions: compareEsdbShapedPositions,
    close: () => inner.close(),
  };
}

/**
 * Checkpoints of the wrapped store, kept by the inner store's checkpoint store in its own
 * positions: a position that is not one of the wrapper's is refused, as EventStoreDB's are.
 */
export function esdbShapedCheckpoints(inner: CheckpointStore): CheckpointStore {
  return {
    async load(name) {
      const position = await inner.load(name);
      return position === undefined ? undefined : encodeEsdbShapedPosition(position);
    },
    store: (name, position) => inner.store(name, decodeEsdbShapedPosition(position)),
  };
}

/** `openEventStore` that also opens `sqlite+esdbpositions:<path>`: what the contract's child workers call. */
export async function openTestEventStore(url: string): Promise<OpenedEventStore> {
  if (!url.startsWith(ESDB_POSITIONS_SCHEME)) return openEventStore(url);
  const opened = await openEventStore(`sqlite:${url.slice(ESDB_POSITIONS_SCHEME.length)}`);
  return {
    store: withEsdbShapedPositions(opened.store),
    checkpoints: esdbShapedCheckpoints(opened.checkpoints),
    leases: esdbShapedLeases(opened.leases),
  };
}

/** Leases of the wrapped store, their fenced checkpoints kept in the inner store's positions. */
function esdbShapedLeases(inner: LeasesAndFencedCheckpoints): LeasesAndFencedCheckpoints {
  return {
    acquire: (name, owner, ttlMs) => inner.acquire(name, owner, ttlMs),
    renew: (lease, ttlMs) => inner.renew(lease, ttlMs),
    release: (lease) => inner.release(lease),
    async load(name) {
      const position = await inner.load(name);
      return position === undefined ? undefined : encodeEsdbShapedPosition(position);
    },
    store: (name, position, token) => inner.store(name, decodeEsdbShapedPosition(position), token),
  };
}
