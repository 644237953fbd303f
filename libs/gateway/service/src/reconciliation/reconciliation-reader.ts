/**
 * What the reconciliation API reads (docs/adr/0007-operator-reconciliation-api.md): the round and
 * wallet-transaction streams of the event log, read-only through the EventStore port the gateway
 * already opens. A transaction is folded by the dispatcher's own decider (`WalletTxRepository`),
 * so its status and attempts are what the dispatcher itself goes by; which transactions a round
 * sent is the round audit's rule (`auditInputIds`). Every read names the calling operator: a
 * stream of another operator reads as absent.
 */
import { auditInputIds, requestedChangeMinor } from '@reelstream/analytics-domain';
import {
  parseStoredEvent,
  parseStreamId,
  playerBonusStream,
  roundStream,
  streamPrefix,
  StreamCategories,
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
import type { EventStore, Position, RecordedEvent } from '@reelstream/ports';
import { standingDeadLetters, WalletTxRepository } from '@reelstream/wallet-application';
import { nextRedriveAt, type WalletTxState } from '@reelstream/wallet-domain';

export interface TransactionQuery {
  operatorId: string;
  from?: string;
  to?: string;
  playerId?: string;
  status?: TransactionStatus;
  limit: number;
  /** Exclusive: the event-log position of the last transaction of the previous page. */
  after?: Position;
}

export interface TransactionPage {
  items: OperatorTransaction[];
  /** Position of the last item's request when more may follow, else undefined. */
  last: Position | undefined;
}

export interface OperatorDeadLetterView {
  transaction: OperatorTransaction;
  reason: WalletDeadLetter['reason'];
  deadLetteredAt: string;
}

export interface DeadLetterQuery {
  operatorId: string;
  limit: number;
  /** Exclusive: the event-log position of the last dead letter of the previous page. */
  after?: Position;
}

export interface DeadLetterPage {
  items: OperatorDeadLetterView[];
  /** Position of the last item's WinDeadLettered when more may follow, else undefined. */
  last: Position | undefined;
}

/** Events read from the log per page while a transaction page is filled. */
const SCAN_PAGE = 500;

const money = (minor: number, currency: string): number =>
  minor < 0 ? -formatAmount(-minor, currency) : formatAmount(minor, currency);

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
    amount: money(requestedChangeMinor(request), request.currency),
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
      status === 'succeeded' && state.balanceMinor !== undefined ? money(state.balanceMinor, request.currency) : null,
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
      bet: money(round.betMinor, round.currency),
      win: settled ? money(settled.data.winMinor, round.currency) : null,
      bonusId: round.bonusId,
      status: settled ? 'settled' : canceled ? 'canceled' : 'open',
      startedAt: round.startedAt,
      endedAt: settled?.data.settledAt ?? canceled?.data.canceledAt ?? null,
      transactions,
    };
  }

  /**
   * A page of the operator's transactions in the order their requests were recorded (the log's
   * order, which a later append never changes). Reads the log after `after` until `limit` match
   * or the log ends.
   */
  async transactions(query: TransactionQuery): Promise<TransactionPage> {
    return this.scanWalletTx(query.after, query.limit, 'WalletRequested', async (recorded) => {
      const event = parseStoredEvent(recorded);
      if (event.type !== 'WalletRequested' || !matchesRequest(event.data.request, query)) return [];
      const found = await this.transaction(query.operatorId, event.data.request.transactionId);
      // One WalletRequested per stream: the dispatcher records a request only on a new stream (a
      // different one under the same transactionId is refused and parked, never recorded).
      if (!found) return [];
      if (query.status !== undefined && found.view.status !== query.status) return [];
      return [found.view];
    });
  }

  /**
   * A page of the operator's dead-lettered wins, in the order they were dead-lettered (the log's
   * order of their last WinDeadLettered, which a later append never changes). Each transaction is
   * listed at its last WinDeadLettered, with every letter its stream still holds (the re-drive
   * CLI's fold); one re-driven since is no longer listed. Reads the log after `after` until `limit`
   * are listed or the log ends; the letters of one transaction are never split over two pages.
   */
  async deadLetters(query: DeadLetterQuery): Promise<DeadLetterPage> {
    return this.scanWalletTx(query.after, query.limit, 'WinDeadLettered', (recorded) =>
      this.standingLetters(query.operatorId, recorded),
    );
  }

  /**
   * A page read off the wallet-transaction streams in the log's order: each event of `type` after
   * `after` gives its items (none, or several that are never split over two pages) until `limit`
   * are listed, when `last` is that event's position, or the log ends, when it is undefined.
   */
  private async scanWalletTx<Item>(
    after: Position | undefined,
    limit: number,
    type: string,
    itemsOf: (recorded: RecordedEvent) => Promise<readonly Item[]>,
  ): Promise<{ items: Item[]; last: Position | undefined }> {
    const items: Item[] = [];
    let from = after;
    for (;;) {
      const page = await this.store.readAll({
        maxCount: SCAN_PAGE,
        filter: { streamPrefixes: [streamPrefix(StreamCategories.walletTx)] },
        ...(from === undefined ? {} : { fromPosition: from }),
      });
      for (const recorded of page) {
        from = recorded.position;
        if (recorded.type !== type) continue;
        const found = await itemsOf(recorded);
        if (found.length === 0) continue;
        items.push(...found);
        if (items.length >= limit) return { items, last: recorded.position };
      }
      if (page.length < SCAN_PAGE) return { items, last: undefined };
    }
  }

  /** The operator's letters of the dead letter's stream when `recorded` is its last WinDeadLettered; else none. */
  private async standingLetters(operatorId: string, recorded: RecordedEvent): Promise<OperatorDeadLetterView[]> {
    const parsed = parseStreamId(recorded.streamId);
    if (parsed?.category !== 'walletTx') return [];
    const stream = await this.store.readStream(recorded.streamId);
    const lastLetter = stream.findLast((event) => event.type === 'WinDeadLettered');
    if (lastLetter?.eventId !== recorded.eventId) return [];
    const views: OperatorDeadLetterView[] = [];
    for (const letter of await standingDeadLetters(this.store, parsed.transactionId)) {
      if (letter.operatorId !== operatorId) continue;
      const { state } = await this.records.load(letter.transactionId);
      const own =
        state.request !== undefined && state.request.operatorId === operatorId && state.status === 'dead_lettered';
      views.push({
        transaction:
          own && state.request ? transactionView(state.request, state, this.scheduleOf(operatorId)) : strayView(letter),
        reason: letter.reason,
        deadLetteredAt: letter.deadLetteredAt,
      });
    }
    return views;
  }
}

function matchesRequest(request: WalletRequest | undefined, query: TransactionQuery): request is WalletRequest {
  if (!request || request.operatorId !== query.operatorId) return false;
  if (query.playerId !== undefined && request.playerId !== query.playerId) return false;
  if (query.from !== undefined && Date.parse(request.requestedAt) < Date.parse(query.from)) return false;
  if (query.to !== undefined && Date.parse(request.requestedAt) >= Date.parse(query.to)) return false;
  return true;
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
