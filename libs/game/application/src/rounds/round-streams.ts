/**
 * The `round-{roundId}` streams, changed only through the round decider (game-domain): RoundStarted,
 * then exactly one of RoundSettled or RoundCanceled. Both writes check the revision, so when two
 * hands finish the same round (a spin that gave up waiting and the resolver that took it over) one
 * wins and the other reads what it wrote.
 */
import { ReelstreamError, roundStream, streamEventParser, isRefusal } from '@reelstream/contracts';
import {
  roundDecider,
  type RoundCommand,
  type RoundEnd,
  type RoundStartedData,
  type RoundState,
} from '@reelstream/game-domain';
import type { Clock, EventStore } from '@reelstream/platform-ports';
import { commandHandler } from '@reelstream/platform-eventsourcing';

export type { RoundEnd, RoundStartedData } from '@reelstream/game-domain';

export interface RoundHistory {
  readonly started: RoundStartedData;
  readonly end?: RoundEnd;
}

export interface FinishedRound {
  readonly history: RoundHistory & { readonly end: RoundEnd };
  /** This call wrote the end (false: another hand had ended the round first). */
  readonly ours: boolean;
}

/** A round stream that contradicts itself, or a refused round step: not retriable, it reads the same way again. */
export class RoundConflictError extends ReelstreamError {
  override readonly name = 'RoundConflictError';
  constructor(message: string) {
    super('INTERNAL', message, { retriable: false });
  }
}

/** `round-{roundId}`: RoundStarted, then its one end. */
const rounds = commandHandler({
  decider: roundDecider,
  streamId: (roundId: number) => roundStream(roundId),
  parse: streamEventParser('round'),
});

export class RoundStreams {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  /** Starts the round; returns the round as its stream records it (another hand's start, if it came first). */
  async start(data: RoundStartedData, correlationId: string): Promise<RoundStartedData> {
    // A round id is drawn fresh (or the caller has just read the stream): decide on the empty state without
    // reading, as the append checks 'no_stream' anyway; a conflict reads the stream and decides again.
    const { state } = await this.decide(data, { type: 'StartRound', started: data }, correlationId, {
      state: roundDecider.initialState,
      revision: undefined,
    });
    if (!state.started) throw new RoundConflictError(`round ${data.roundId} has no RoundStarted after its start`);
    return state.started;
  }

  /** Appends the round's end, or returns the end another writer appended first. */
  async finish(started: RoundStartedData, end: RoundEnd, correlationId: string): Promise<FinishedRound> {
    const command: RoundCommand = { type: 'FinishRound', roundId: started.roundId, end };
    // The round as its start left it (revision 0): an end already written makes the append conflict and re-read.
    const { state, events } = await this.decide(started, command, correlationId, { state: { started }, revision: 0 });
    if (!state.started || !state.end) throw new RoundConflictError(`round ${started.roundId} moved on but has no end`);
    return { history: { started: state.started, end: state.end }, ours: events.length > 0 };
  }

  async load(roundId: number): Promise<RoundHistory | undefined> {
    const { state } = await rounds.load(this.store, roundId);
    if (!state.started) return undefined;
    return state.end ? { started: state.started, end: state.end } : { started: state.started };
  }

  /** The command on the round's stream, decided first on the state the caller knows; a refusal is a conflict. */
  private async decide(
    round: RoundStartedData,
    command: RoundCommand,
    correlationId: string,
    loaded: { state: RoundState; revision: number | undefined },
  ) {
    const context = {
      commandId: `${correlationId}:${command.type}:${round.roundId}`,
      correlationId,
      causationId: correlationId,
      operatorId: round.operatorId,
      occurredAt: this.clock.now().toISOString(),
    };
    const handled = await rounds.handle(this.store, round.roundId, command, context, { loaded });
    if (isRefusal(handled)) throw new RoundConflictError(`round ${round.roundId}: ${handled.message}`);
    return handled;
  }
}
