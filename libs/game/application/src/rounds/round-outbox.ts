/**
 * The game-server's outbox (docs/architecture.md, "The outboxes"): a checkpointed catch-up subscription on the `round`
 * streams. For every RoundSettled that names a win transaction it publishes the round's `win` to
 * `wallet.requests` (isRoundFinished, bonusId 0), so a settled round's win is sent at least once
 * whatever crashes. It also keeps the rounds that started and did not end, and hands each one that
 * stays open too long to the resolver. The checkpoint is held before the earliest open round, so
 * a restart sees those rounds again.
 */
import { Headers, parseStoredEvent, playerKey, streamPrefix, Topics, type RoundSettled } from '@reelstream/contracts';
import { startCatchUp, type CatchUpRunner, type StreamShard } from '@reelstream/platform-eventsourcing';
import {
  type CheckpointStore,
  type Clock,
  type EventStore,
  type MessageBus,
  type Position,
  type RecordedEvent,
  traceHeadersOf,
} from '@reelstream/platform-ports';
import { paidRoundWinRequest } from '@reelstream/game-domain';
import type { GameLog } from '../ports.js';
import { heldCheckpoints } from './held-checkpoints.js';
import type { RoundStartedData, RoundStreams } from './round-streams.js';

/** The outbox's checkpoint name unless told otherwise (the lag gauge reads it too). */
export const ROUND_OUTBOX_CHECKPOINT = 'game-server.round-outbox';

export interface RoundOutboxOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  bus: MessageBus;
  rounds: RoundStreams;
  clock: Clock;
  logger: GameLog;
  /** A round open this long after it started goes to `resolve`. */
  resolveAfterMs: number;
  /** How often open rounds are looked at. */
  resolveIntervalMs: number;
  /** Rounds this process is working on right now: not the resolver's. */
  isInFlight(roundId: number): boolean;
  /** Finishes an open round; the outbox sees its end event afterwards. */
  resolve(started: RoundStartedData): Promise<unknown>;
  name?: string;
  /** Only the rounds of this shard (an outbox split into shards, docs/adr/0045-outbox-and-relay-split-into-shards.md). Default: every round. */
  shard?: StreamShard;
  retryDelayMs?: number;
  /**
   * False once this replica may no longer be the only outbox (its lease lapsed): no win is sent and
   * no round resolved, until the outbox is stopped (docs/adr/0005-leases-and-fencing.md).
   */
  held?: () => boolean;
}

export interface RoundOutbox {
  /** Resolves when every round event stored up to `position` has been handled. */
  waitFor(position: Position): Promise<void>;
  /** Open rounds known to the outbox (the resolver's work list). */
  openRounds(): readonly RoundStartedData[];
  stop(): Promise<void>;
}

interface OpenRound {
  readonly started: RoundStartedData;
  /** The position handled just before its RoundStarted ('start' when none). */
  readonly before: Position | 'start';
}

// Long because: its handlers share the open rounds, the resolutions in flight and the last handled position (closures);
// splitting would thread that mutable state through every helper.
export function startRoundOutbox(options: RoundOutboxOptions): RoundOutbox {
  const { store, bus, logger } = options;
  const open = new Map<number, OpenRound>();
  const resolving = new Map<number, Promise<void>>();
  let lastHandled: Position | 'start' = 'start';

  const checkpoints = heldCheckpoints(
    {
      async load(name) {
        const position = await options.checkpoints.load(name);
        if (position !== undefined) lastHandled = position;
        return position;
      },
      store: (name, position) => options.checkpoints.store(name, position),
    },
    store,
    { holdAt: () => earliest(open.values(), store) },
  );

  const publishWin = async (recorded: RecordedEvent, settled: RoundSettled['data']): Promise<void> => {
    if (settled.winTransactionId === undefined) return;
    const started = open.get(settled.roundId)?.started ?? (await options.rounds.load(settled.roundId))?.started;
    if (!started) throw new Error(`round ${settled.roundId} is settled but has no RoundStarted`);
    // The dispatcher checks the win against this event before it sends it.
    const win = paidRoundWinRequest(started, settled, {
      stream: recorded.streamId,
      revision: recorded.revision,
      eventId: recorded.eventId,
    });
    if (!win) return;
    const headers: Record<string, string> = {
      [Headers.messageType]: 'win',
      [Headers.operatorId]: started.operatorId,
      ...traceHeadersOf(recorded.metadata),
    };
    if (options.held && !options.held()) throw new Error('the round outbox lease is no longer held: nothing sent');
    await bus.publish(Topics.walletRequests, { key: playerKey(win), value: win, headers });
  };

  const handle = async (recorded: RecordedEvent): Promise<void> => {
    const event = parseStoredEvent(recorded);
    switch (event.type) {
      case 'RoundStarted':
        if (!open.has(event.data.roundId)) open.set(event.data.roundId, { started: event.data, before: lastHandled });
        break;
      case 'RoundSettled':
        await publishWin(recorded, event.data);
        open.delete(event.data.roundId);
        break;
      case 'RoundCanceled':
        open.delete(event.data.roundId);
        break;
      default:
        throw new Error(`a round stream holds ${event.type}`);
    }
    lastHandled = recorded.position;
  };

  const runner: CatchUpRunner = startCatchUp({
    store,
    checkpoints,
    name: options.name ?? ROUND_OUTBOX_CHECKPOINT,
    filter: { streamPrefixes: [streamPrefix('round')] },
    ...(options.shard ? { shard: options.shard } : {}),
    handle,
    ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
    onError: (error, event) =>
      logger.error('round outbox failed; retrying', { error, streamId: event?.streamId, type: event?.type }),
  });

  const sweep = (): void => {
    if (options.held && !options.held()) return;
    const now = options.clock.now().getTime();
    for (const { started } of open.values()) {
      const { roundId } = started;
      if (
        resolving.has(roundId) ||
        options.isInFlight(roundId) ||
        now - Date.parse(started.startedAt) < options.resolveAfterMs
      )
        continue;
      logger.info('resolving an open round', { roundId, kind: started.kind, startedAt: started.startedAt });
      const resolution = options
        .resolve(started)
        .then(
          () => undefined,
          (error: unknown) => logger.error('could not resolve an open round; trying again later', { roundId, error }),
        )
        .finally(() => resolving.delete(roundId));
      resolving.set(roundId, resolution);
    }
  };
  const timer = setInterval(sweep, options.resolveIntervalMs);
  timer.unref();

  return {
    waitFor: (position) => runner.waitFor(position),
    openRounds: () => [...open.values()].map((round) => round.started),
    async stop() {
      clearInterval(timer);
      await Promise.all(resolving.values());
      await runner.stop();
    },
  };
}

function earliest(rounds: Iterable<OpenRound>, store: EventStore): Position | 'start' | undefined {
  let held: Position | 'start' | undefined;
  for (const { before } of rounds) {
    if (before === 'start') return 'start';
    if (held === undefined || store.comparePositions(before, held as Position) < 0) held = before;
  }
  return held;
}
