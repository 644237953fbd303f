/**
 * Runs the status projection: a catch-up subscription on the `playerBonus` streams whose
 * checkpoint lives with the rows (the projection store writes both in one transaction), so
 * `checkpoints` here only loads it. `caughtUp()` gives queries read-your-writes: it waits until
 * every bonus event stored when it was called is in the read model.
 */
import { ReelstreamError, streamPrefix, type BonusCallRecord } from '@reelstream/contracts';
import { caughtUpWith, startCatchUp, type CatchUpRunner } from '@reelstream/platform-eventsourcing';
import { type EventStore, type Position, type RecordedEvent } from '@reelstream/platform-ports';
import { projectBonusCall } from './bonus-record-projection.js';
import { parsePlayerBonusEvent } from './streams.js';
import type { BonusProjectionStore, ProjectionChange } from './ports.js';

export const PLAYER_BONUS_FILTER = { streamPrefixes: [streamPrefix('playerBonus')] };

/** The read model and the relay retry a failed batch or a dropped subscription after this long (unless told otherwise). */
export const LEDGER_RETRY_DELAY_MS = 250;

export interface BonusProjectionOptions {
  store: EventStore;
  projection: BonusProjectionStore;
  /** Called after each record written, e.g. to re-arm the expiry timer. */
  onApplied?: (record: BonusCallRecord) => void;
  onError?: (error: unknown) => void;
  /** How long `caughtUp` waits before it gives up. Default 5 s. */
  catchUpTimeoutMs?: number;
  retryDelayMs?: number;
}

class ProjectionLagError extends ReelstreamError {
  override readonly name = 'ProjectionLagError';
  constructor(
    readonly position: Position,
    timeoutMs: number,
  ) {
    super('SERVICE_UNAVAILABLE', `the bonus read model did not reach position ${position} within ${timeoutMs} ms`, {
      retriable: true,
    });
  }
}

export interface BonusProjection {
  /** Resolves once every bonus event stored at the time of the call is applied; rejects with ProjectionLagError. */
  caughtUp(): Promise<void>;
  readonly handledPosition: Position | undefined;
  stop(): Promise<void>;
}

/** The read-model change one stored bonus event makes. */
export function projectionChange(recorded: RecordedEvent): ProjectionChange {
  const event = parsePlayerBonusEvent(recorded);
  return {
    position: recorded.position,
    streamId: recorded.streamId,
    revision: recorded.revision,
    issueId: event.data.issueId,
    project: (current) => projectBonusCall(current, event),
  };
}

export function startBonusProjection(options: BonusProjectionOptions): BonusProjection {
  const { store, projection, onApplied } = options;
  const timeoutMs = options.catchUpTimeoutMs ?? 5_000;
  const lagError = (position: Position) => new ProjectionLagError(position, timeoutMs);
  const runner: CatchUpRunner = startCatchUp({
    store,
    // Rows and checkpoint are written together by `projection.apply`; nothing to store separately.
    checkpoints: { load: () => projection.checkpoint(), store: async () => undefined },
    name: 'bonus-ledger.read-model',
    filter: PLAYER_BONUS_FILTER,
    retryDelayMs: options.retryDelayMs ?? LEDGER_RETRY_DELAY_MS,
    handleBatch: async (batch) => {
      const written = await projection.apply(batch.map(projectionChange));
      if (onApplied) for (const record of written) onApplied(record);
    },
    onError: (error) => options.onError?.(error),
  });

  return {
    get handledPosition() {
      return runner.handledPosition;
    },
    caughtUp: () => caughtUpWith(store, runner, PLAYER_BONUS_FILTER, timeoutMs, lagError),
    stop: () => runner.stop(),
  };
}
