/**
 * What `audit round` and `reconcile` read through the EventStore port: one round's streams (its
 * own, the player's bonus stream for a free spin, the wallet transactions it names) and every
 * wallet transaction of one operator. Read-only: nothing is appended.
 */
import {
  auditInputIds,
  auditRound,
  foldWalletTransaction,
  RoundNotFoundError,
  type RoundAudit,
  type WalletTransaction,
} from '@reelstream/analytics-domain';
import {
  parseStoredEvent,
  playerBonusStream,
  roundStream,
  streamPrefix,
  walletTxStream,
  type DomainEvent,
  type PlayerBonusEvent,
  type RoundEvent,
  type WalletTxEvent,
} from '@reelstream/contracts';
import type { EventStore, Position, RecordedEvent } from '@reelstream/platform-ports';
import { UnreadableEventError } from '../log-events.js';

/** An event the contracts refuse is an UnreadableEventError naming its position, as in a replay. */
function parsed<Event extends DomainEvent>(recorded: RecordedEvent): Event {
  try {
    return parseStoredEvent(recorded) as Event;
  } catch (error) {
    throw new UnreadableEventError(recorded.position, recorded.streamId, error);
  }
}

async function readParsed<Event extends DomainEvent>(store: EventStore, streamId: string): Promise<Event[]> {
  return (await store.readStream(streamId)).map((recorded) => parsed<Event>(recorded));
}

/** The audit of one round; `catalogModelOf` names the model the catalogue plays a game with. */
export async function loadRoundAudit(
  store: EventStore,
  roundId: number,
  catalogModelOf: (gameId: number) => string | undefined,
): Promise<RoundAudit> {
  const roundEvents = await readParsed<RoundEvent>(store, roundStream(roundId));
  const started = roundEvents.find((event) => event.type === 'RoundStarted');
  if (!started) throw new RoundNotFoundError(`round ${roundId} is not in the log`);
  const { operatorId, playerId, bonusId, gameId } = started.data;
  // A free round and a paid one steered by a Regular Bonus Call are checked against the player's bonus stream.
  const bonusEvents =
    bonusId !== 0 ? await readParsed<PlayerBonusEvent>(store, playerBonusStream(operatorId, playerId)) : [];
  const walletTx = new Map<number, WalletTxEvent[]>();
  for (const id of auditInputIds(roundEvents, bonusEvents))
    walletTx.set(id, await readParsed<WalletTxEvent>(store, walletTxStream(id)));
  return auditRound({ roundId, roundEvents, bonusEvents, walletTx, catalogModelId: catalogModelOf(gameId) });
}

/**
 * An operator's export taken at a point in time, covering a period: `toMs` is when it was taken
 * (events of the log at or after it are not read: a transaction answered later is one whose answer
 * the export could not know), `fromMs` where its period starts (transactions requested before it are
 * left out). Epoch ms; `from` inclusive, `to` exclusive.
 */
export interface ReconcileWindow {
  readonly fromMs?: number | undefined;
  readonly toMs?: number | undefined;
}

const occurredAtMs = (recorded: RecordedEvent) => {
  const stamped = recorded.metadata['occurredAt'];
  return Date.parse(typeof stamped === 'string' ? stamped : recorded.recordedAt);
};

/** Every wallet transaction of `operatorId` in the log (within `window`), in the order they were requested. */
export async function loadOperatorTransactions(
  store: EventStore,
  operatorId: string,
  pageSize = 5_000,
  window: ReconcileWindow = {},
): Promise<WalletTransaction[]> {
  const streams = new Map<string, WalletTxEvent[]>();
  /** Streams whose request came before the window: left out. */
  const before = new Set<string>();
  let from: Position | undefined;
  for (;;) {
    const page: RecordedEvent[] = await store.readAll({
      maxCount: pageSize,
      filter: { streamPrefixes: [streamPrefix('walletTx')] },
      ...(from === undefined ? {} : { fromPosition: from }),
    });
    for (const recorded of page) {
      const atMs = occurredAtMs(recorded);
      if (window.toMs !== undefined && atMs >= window.toMs) continue;
      if (recorded.type === 'WalletRequested' && window.fromMs !== undefined && atMs < window.fromMs)
        before.add(recorded.streamId);
      if (before.has(recorded.streamId)) continue;
      const events = streams.get(recorded.streamId) ?? [];
      events.push(parsed<WalletTxEvent>(recorded));
      streams.set(recorded.streamId, events);
    }
    from = page.at(-1)?.position ?? from;
    if (page.length < pageSize) break;
  }
  return [...streams.values()].flatMap((events) => {
    const tx = foldWalletTransaction(events);
    return tx && tx.request.operatorId === operatorId ? [tx] : [];
  });
}
