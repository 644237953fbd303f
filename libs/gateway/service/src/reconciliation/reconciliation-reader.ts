/**
 * What the reconciliation API reads (docs/adr/0007-operator-reconciliation-api.md): the round and
 * wallet-transaction streams of the event log, read-only through the EventStore port the gateway
 * already opens. A transaction is folded by the dispatcher's own decider (`WalletTxRepository`),
 * so its status and attempts are what the dispatcher itself goes by; which transactions a round
 * sent is the round audit's rule (`auditInputIds`). Every read names the calling operator: a
 * stream of another operator reads as absent.
 */
import { auditInputIds, requestedChangeMinor } from '@reelstream/analytics-application';
import {
  parseStoredEvent,
  playerBonusStream,
  roundStream,
  type OperatorRound,
  type OperatorTransaction,
  type PlayerBonusEvent,
  type RoundEvent,
  type TransactionStatus,
  type WalletDeadLetter,
  type WalletRequest,
  type WinRedriveSchedule,
} from '@reelstream/contracts';
import { formatAmount } from '@reelstream/money';
import type { EventStore } from '@reelstream/platform-ports';
import {
  conflictDeadLettersOf,
  deadLetterOf,
  nextRedriveAt,
  standingDeadLetters,
  WalletTxRepository,
  type ReconciliationProjection,
  type ReconciliationReadModel,
  type StoredWalletTx,
  type WalletTxState,
} from '@reelstream/wallet-application';

export interface TransactionQuery {
  operatorId: string;
  from?: string;
  to?: string;
  playerId?: string;
  status?: TransactionStatus;
  limit: number;
  /** Exclusive: the place in the operator's list of the last row of the previous page. */
  afterSeq?: number;
}

/** A page of a list: its items, and the place of the last row read when more may follow (else undefined). */
export interface ListPage<Item> {
  items: Item[];
  lastSeq: number | undefined;
}

export interface OperatorDeadLetterView {
  transaction: OperatorTransaction;
  reason: WalletDeadLetter['reason'];
  deadLetteredAt: string;
}

export interface DeadLetterQuery {
  operatorId: string;
  limit: number;
  /** Exclusive: the place in the operator's list of the last dead letter of the previous page. */
  afterSeq?: number;
}

/**
 * Rows one request reads at most from the read model while a time filter (`from`, `to`) skips
 * rows: past it the page ends early with a cursor, so no page reads without bound.
 */
const MAX_ROWS_PER_PAGE = 2_000;

/** What the API shows of a wallet request, whatever became of it. */
function requestFields(request: WalletRequest) {
  return {
    transactionId: request.transactionId,
    roundId: request.roundId,
    playerId: request.playerId,
    providerId: request.providerId,
    gameId: request.gameId,
    command: request.command,
    currency: request.currency,
    amount: formatAmount(requestedChangeMinor(request), request.currency),
    bonusId: request.bonusId,
    requestedAt: request.requestedAt,
  };
}

/**
 * The API view of a wallet transaction: its request and the dispatcher's record of its delivery;
 * a dead-lettered win's next scheduled re-drive by the operator's `winRedrive`.
 */
export function transactionView(
  request: WalletRequest,
  state: WalletTxState,
  schedule: WinRedriveSchedule,
): OperatorTransaction {
  const status: TransactionStatus = state.status === 'new' ? 'pending' : state.status;
  const { cancel } = state;
  return {
    ...requestFields(request),
    status,
    attempts: state.attempts,
    lastError: status === 'succeeded' ? null : (state.lastFailure?.reason ?? state.deadLetterError ?? null),
    balance:
      status === 'succeeded' && state.balanceMinor !== undefined
        ? formatAmount(state.balanceMinor, request.currency)
        : null,
    cancel: cancel
      ? {
          transactionId: cancel.cancelTransactionId,
          status: cancel.succeeded ? 'succeeded' : 'pending',
          attempts: cancel.attempts,
        }
      : null,
    nextRedriveAt: nextRedriveAt(state, schedule) ?? null,
  };
}

export class ReconciliationReader {
  private readonly records: WalletTxRepository;

  constructor(
    private readonly store: EventStore,
    /** The operator's `winRedrive` schedule (its default when it configures none). */
    private readonly scheduleOf: (operatorId: string) => WinRedriveSchedule,
    /** The lists' read model, opened on first use (docs/adr/0017-reconciliation-projections.md). */
    private readonly reads: () => { readModel: ReconciliationReadModel; projection: ReconciliationProjection },
    private readonly rowBound = MAX_ROWS_PER_PAGE,
  ) {
    this.records = new WalletTxRepository(store);
  }

  /** The operator's transaction, or undefined when it does not exist or is another operator's. */
  async transaction(
    operatorId: string,
    transactionId: number,
  ): Promise<{ view: OperatorTransaction; state: WalletTxState } | undefined> {
    const { state } = await this.records.load(transactionId);
    if (!state.request || state.request.operatorId !== operatorId) return undefined;
    return { view: transactionView(state.request, state, this.scheduleOf(operatorId)), state };
  }

  /** The operator's round with its transactions, or undefined (absent, or another operator's). */
  async round(operatorId: string, roundId: number): Promise<OperatorRound | undefined> {
    const events = (await this.store.readStream(roundStream(roundId))).map(
      (recorded) => parseStoredEvent(recorded) as RoundEvent,
    );
    const started = events.find((event) => event.type === 'RoundStarted');
    if (!started || started.data.operatorId !== operatorId) return undefined;
    const round = started.data;
    const settled = events.find((event) => event.type === 'RoundSettled');
    const canceled = events.find((event) => event.type === 'RoundCanceled');
    const bonusEvents =
      round.kind === 'free'
        ? (await this.store.readStream(playerBonusStream(operatorId, round.playerId))).map(
            (recorded) => parseStoredEvent(recorded) as PlayerBonusEvent,
          )
        : [];
    const transactions: OperatorTransaction[] = [];
    for (const transactionId of auditInputIds(events, bonusEvents)) {
      const found = await this.transaction(operatorId, transactionId);
      if (found) transactions.push(found.view);
    }
    return {
      roundId: round.roundId,
      playerId: round.playerId,
      providerId: round.providerId,
      gameId: round.gameId,
      kind: round.kind,
      currency: round.currency,
      bet: formatAmount(round.betMinor, round.currency),
      win: settled ? formatAmount(settled.data.winMinor, round.currency) : null,
      bonusId: round.bonusId,
      status: settled ? 'settled' : canceled ? 'canceled' : 'open',
      startedAt: round.startedAt,
      endedAt: settled?.data.settledAt ?? canceled?.data.canceledAt ?? null,
      transactions,
    };
  }

  /**
   * A page of the operator's transactions in the order their requests were recorded (the log's
   * order, which a later append never changes), read by the filters' index of the read model once
   * it holds every wallet event stored when the request came. A time filter is applied to the rows
   * read: at most `rowBound` of them (never fewer than `limit`), then the page ends, maybe short or
   * empty, with a cursor.
   */
  async transactions(query: TransactionQuery): Promise<ListPage<OperatorTransaction>> {
    const { readModel, projection } = this.reads();
    await projection.caughtUp();
    const timed = query.from !== undefined || query.to !== undefined;
    const maxRows = timed ? Math.max(this.rowBound, query.limit) : query.limit;
    const rows = readModel.transactionRows({
      operatorId: query.operatorId,
      // An undefined filter is none: the read model adds a condition only for a value.
      playerId: query.playerId,
      status: query.status,
      afterSeq: query.afterSeq ?? 0,
      maxRows: maxRows + 1,
    });
    const schedule = this.scheduleOf(query.operatorId);
    const items: OperatorTransaction[] = [];
    const from = query.from === undefined ? undefined : Date.parse(query.from);
    const to = query.to === undefined ? undefined : Date.parse(query.to);
    let examined = 0;
    let lastSeq: number | undefined;
    let filledAt: number | undefined;
    for (const row of rows) {
      // A row after the one that filled the page: more follow.
      if (filledAt !== undefined) return { items, lastSeq: filledAt };
      // The bound was hit before the page filled: the cursor names the last row read.
      if (examined === maxRows) return { items, lastSeq };
      examined += 1;
      lastSeq = row.seq;
      const inTime = (from === undefined || row.requestedAtMs >= from) && (to === undefined || row.requestedAtMs < to);
      if (!inTime) continue;
      const { state } = row.stored;
      if (state.request?.operatorId !== query.operatorId) continue;
      items.push(transactionView(state.request, state, schedule));
      if (items.length === query.limit) filledAt = row.seq;
    }
    return { items, lastSeq: undefined };
  }

  /**
   * A page of the operator's dead-lettered wins, in the order they were dead-lettered (the order of
   * each transaction's last WinDeadLettered). Each transaction is listed with every letter its
   * stream still holds (the re-drive CLI's fold); one re-driven since is no longer listed. The
   * letters of one transaction are never split over two pages.
   */
  async deadLetters(query: DeadLetterQuery): Promise<ListPage<OperatorDeadLetterView>> {
    const { readModel, projection } = this.reads();
    await projection.caughtUp();
    const rows = readModel.deadLetterRows(query.operatorId, query.afterSeq ?? 0, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const items: OperatorDeadLetterView[] = [];
    for (const [index, row] of page.entries()) {
      items.push(...(await this.lettersOf(query.operatorId, row.transactionId, row.stored)));
      if (items.length >= query.limit) return { items, lastSeq: index < rows.length - 1 ? row.seq : undefined };
    }
    // Short when a row showed none of the operator's letters (a stream read as written that holds none it can
    // show): a cursor still follows when more rows were read.
    return { items, lastSeq: rows.length > query.limit ? page.at(-1)?.seq : undefined };
  }

  /** The operator's letters of a transaction: from its folded state, or read as written when the decider cannot fold it. */
  private async lettersOf(
    operatorId: string,
    transactionId: number,
    stored: StoredWalletTx,
  ): Promise<OperatorDeadLetterView[]> {
    const { state } = stored;
    const own = deadLetterOf(state);
    const letters = stored.folded
      ? [...(own ? [own] : []), ...conflictDeadLettersOf(state)]
      : await standingDeadLetters(this.store, transactionId);
    return letters
      .filter((letter) => letter.operatorId === operatorId)
      .map((letter) => ({
        transaction:
          stored.folded && letter === own && state.request
            ? transactionView(state.request, state, this.scheduleOf(operatorId))
            : strayView(letter),
        reason: letter.reason,
        deadLetteredAt: letter.deadLetteredAt,
      }));
  }
}

/** A dead letter whose transactionId names another recorded request: never sent under it. */
function strayView(letter: WalletDeadLetter): OperatorTransaction {
  const { request } = letter;
  return {
    ...requestFields(request),
    status: 'dead_lettered',
    attempts: letter.attempts,
    lastError: letter.lastError,
    balance: null,
    cancel: null,
    nextRedriveAt: null,
  };
}
