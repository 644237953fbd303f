/**
 * The reconciliation read model's projection (docs/adr/0017-reconciliation-projections.md): a
 * checkpointed catch-up subscription on the `walletTx` and `webhookLetter` streams that keeps, per
 * operator, the rows `GET /v1/transactions` and the dead-letter lists page through. Each stored
 * event becomes one change; the store applies a change only when its revision is past the one it
 * last applied for the stream (idempotent by stream revision), and writes the rows and the
 * checkpoint in one transaction, so a replayed event changes nothing.
 *
 * A wallet transaction is folded by the dispatcher's own decider, as `WalletTxRepository.load`
 * folds it: its status, attempts and dead letters are what the dispatcher itself goes by.
 */
import {
  parseStoredEvent,
  parseStreamId,
  ReelstreamError,
  streamPrefix,
  StreamCategories,
  type TransactionStatus,
  type WalletTxEvent,
} from '@reelstream/contracts';
import { caughtUpWith, startCatchUp } from '@reelstream/platform-eventsourcing';
import type { EventStore, Position, RecordedEvent } from '@reelstream/platform-ports';
import { conflictDeadLettersOf, deadLetterOf, walletTxDecider, type WalletTxState } from '@reelstream/wallet-domain';

export const RECONCILIATION_FILTER = {
  streamPrefixes: [streamPrefix(StreamCategories.walletTx), streamPrefix(StreamCategories.webhookLetter)],
};

/** A transaction as the read model keeps it: the folded state, or the letters of a stream the decider cannot fold. */
export type StoredWalletTx =
  | { readonly folded: true; readonly state: WalletTxState }
  | { readonly folded: false; readonly state: WalletTxState; readonly letterOperators: readonly string[] };

/** What one walletTx event makes of the transaction's row. */
export interface WalletTxRow {
  readonly stored: StoredWalletTx;
  /** Listed by `GET /v1/transactions` once its request is recorded. */
  readonly listing:
    { operatorId: string; playerId: string; status: TransactionStatus; requestedAtMs: number } | undefined;
  /** The operators with a standing dead letter in the stream after this event. */
  readonly letterOperators: readonly string[];
  /** The operator whose letter this event wrote: its place moves to the end of that operator's list. */
  readonly letteredBy: string | undefined;
}

export interface WalletTxChange {
  readonly kind: 'walletTx';
  readonly position: Position;
  readonly streamId: string;
  readonly revision: number;
  readonly transactionId: number;
  project(previous: StoredWalletTx | undefined): WalletTxRow;
}

export interface WebhookLetterChange {
  readonly kind: 'webhookLetter';
  readonly position: Position;
  readonly streamId: string;
  readonly revision: number;
  readonly operatorId: string;
  readonly eventId: string;
  /** The letter written (standing from now on), or undefined: a re-drive was asked (no longer standing). */
  readonly letter: unknown;
}

/** A change the projection does not keep (another stream kind): only moves the checkpoint. */
interface SkippedChange {
  readonly kind: 'skip';
  readonly position: Position;
}

export type ReconciliationChange = WalletTxChange | WebhookLetterChange | SkippedChange;

/** Where the projection writes: rows and checkpoint in one transaction per batch. */
interface ReconciliationProjectionStore {
  checkpoint(): Promise<Position | undefined>;
  apply(changes: readonly ReconciliationChange[]): Promise<void>;
}

/** The three lists, each with its own per-operator sequence. */
export type ReconciliationList = 'transactions' | 'deadLetters' | 'webhookLetters';

export interface TransactionRow {
  readonly seq: number;
  readonly transactionId: number;
  readonly requestedAtMs: number;
  readonly stored: StoredWalletTx;
}

export interface TransactionRowQuery {
  operatorId: string;
  playerId?: string;
  status?: string;
  /** Exclusive. */
  afterSeq: number;
  /** Rows read at most (in sequence order). */
  maxRows: number;
}

export interface DeadLetterRow {
  readonly seq: number;
  readonly transactionId: number;
  readonly stored: StoredWalletTx;
}

export interface WebhookLetterRow {
  readonly seq: number;
  readonly letter: unknown;
}

/**
 * The reconciliation read model: what the projection writes and the lists page through
 * (`GET /v1/transactions`, `/v1/wallet/dead-letters`, `/v1/webhooks/dead-letters`), each list in
 * its per-operator sequence. The wallet adapters implement it on SQLite; the gateway, which serves
 * the lists, is handed the way to open one by the app that starts it.
 */
export interface ReconciliationReadModel extends ReconciliationProjectionStore {
  /** The operator's transactions after `afterSeq` in sequence order, at most `maxRows`: read as the caller iterates. */
  transactionRows(query: TransactionRowQuery): Iterable<TransactionRow>;
  /** The operator's transactions with a standing dead letter after `afterSeq`, in the order of their last letter. */
  deadLetterRows(operatorId: string, afterSeq: number, maxRows: number): DeadLetterRow[];
  /** The operator's standing webhook letters after `afterSeq`, in the order they were (last) dead-lettered. */
  webhookLetterRows(operatorId: string, afterSeq: number, maxRows: number): WebhookLetterRow[];
  close(): void;
}

/** Opens a reconciliation read model on a file (`:memory:`: in the process), positions ordered as the event store orders them. */
export interface ReconciliationReadModels {
  open(path: string, options: { comparePositions: (a: Position, b: Position) => number }): ReconciliationReadModel;
}

const statusOf = (state: WalletTxState): TransactionStatus => (state.status === 'new' ? 'pending' : state.status);

/** The operators whose letters the folded transaction still holds (its own win's, and stray wins'). */
function standingLetterOperators(state: WalletTxState): string[] {
  const own = deadLetterOf(state);
  return [...new Set([...(own ? [own.operatorId] : []), ...conflictDeadLettersOf(state).map((l) => l.operatorId)])];
}

function listingOf(state: WalletTxState): WalletTxRow['listing'] {
  const { request } = state;
  if (!request) return undefined;
  return {
    operatorId: request.operatorId,
    playerId: request.playerId,
    status: statusOf(state),
    requestedAtMs: Date.parse(request.requestedAt),
  };
}

/** The row after `event`: folded by the decider; a stream it cannot fold keeps its last state and lists the letters written into it. */
function projectWalletTx(previous: StoredWalletTx | undefined, recorded: RecordedEvent): WalletTxRow {
  const before: StoredWalletTx = previous ?? { folded: true, state: walletTxDecider.initialState };
  let parsed: WalletTxEvent | undefined;
  try {
    parsed = parseStoredEvent(recorded) as WalletTxEvent;
  } catch {
    parsed = undefined;
  }
  // A letter of the stream's own win names no request: it is the recorded request's.
  const letteredBy =
    parsed?.type === 'WinDeadLettered' ? (parsed.data.request ?? before.state.request)?.operatorId : undefined;
  if (before.folded && parsed) {
    try {
      const state = walletTxDecider.evolve(before.state, parsed);
      const letterOperators = standingLetterOperators(state);
      return {
        stored: { folded: true, state },
        listing: listingOf(state),
        letterOperators,
        letteredBy: letteredBy !== undefined && letterOperators.includes(letteredBy) ? letteredBy : undefined,
      };
    } catch {
      // Falls through: from here on the stream is listed as it is written, as the re-drive CLI lists it.
    }
  }
  const earlier = before.folded ? standingLetterOperators(before.state) : before.letterOperators;
  const letterOperators = [...new Set([...earlier, ...(letteredBy === undefined ? [] : [letteredBy])])];
  return {
    stored: { folded: false, state: before.state, letterOperators },
    listing: listingOf(before.state),
    letterOperators,
    letteredBy,
  };
}

/** The read-model change one stored event makes. */
export function reconciliationChange(recorded: RecordedEvent): ReconciliationChange {
  const parsed = parseStreamId(recorded.streamId);
  const { position, streamId, revision } = recorded;
  if (parsed?.category === 'walletTx')
    return {
      kind: 'walletTx',
      position,
      streamId,
      revision,
      transactionId: parsed.transactionId,
      project: (previous) => projectWalletTx(previous, recorded),
    };
  if (parsed?.category === 'webhookLetter') {
    const event = parseStoredEvent(recorded);
    return {
      kind: 'webhookLetter',
      position,
      streamId,
      revision,
      operatorId: parsed.operatorId,
      eventId: parsed.eventId,
      letter: event.type === 'WebhookDeadLettered' ? event.data : undefined,
    };
  }
  return { kind: 'skip', position };
}

class ReconciliationLagError extends ReelstreamError {
  override readonly name = 'ReconciliationLagError';
  constructor(position: Position, timeoutMs: number) {
    super('SERVICE_UNAVAILABLE', `the reconciliation read model did not reach ${position} within ${timeoutMs} ms`, {
      retriable: true,
    });
  }
}

export interface ReconciliationProjection {
  /** Resolves once every wallet and webhook-letter event stored at the time of the call is applied. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

interface ReconciliationProjectionOptions {
  store: EventStore;
  projection: ReconciliationProjectionStore;
  onError?: (error: unknown) => void;
  /** How long `caughtUp` waits before it rejects (503). Default 5 s. */
  catchUpTimeoutMs?: number;
  retryDelayMs?: number;
}

export const RECONCILIATION_CHECKPOINT = 'gateway.reconciliation-read-model';

export function startReconciliationProjection(options: ReconciliationProjectionOptions): ReconciliationProjection {
  const { store, projection } = options;
  const timeoutMs = options.catchUpTimeoutMs ?? 5_000;
  const lagError = (position: Position) => new ReconciliationLagError(position, timeoutMs);
  const runner = startCatchUp({
    store,
    // Rows and checkpoint are written together by `projection.apply`; nothing to store separately.
    checkpoints: { load: () => projection.checkpoint(), store: async () => undefined },
    name: RECONCILIATION_CHECKPOINT,
    filter: RECONCILIATION_FILTER,
    retryDelayMs: options.retryDelayMs ?? 250,
    handleBatch: (batch) => projection.apply(batch.map(reconciliationChange)),
    onError: (error) => options.onError?.(error),
  });
  return {
    caughtUp: () => caughtUpWith(store, runner, RECONCILIATION_FILTER, timeoutMs, lagError),
    stop: () => runner.stop(),
  };
}
