/**
 * Row-level exports (`reelstream export`): one row per round, wallet transaction, bonus call or
 * session, for BI tools. The rows are read off the same fold state the reports use: the LogIndex
 * (a round's operator, player, game, bet and session; a transaction's request), the bonus-outcomes
 * fold (a bonus call's lifecycle) and the wallet transaction's outcome rules of the audit
 * (`foldWalletTransaction`). A row is emitted once its subject is closed, at the event that closes
 * it (a round settled or canceled, a transaction answered for good, a bonus call ended, a session
 * ended): that event's position and time are the row's, which the incremental export windows on.
 *
 * Money is integer minor units with the currency's `exponent` beside it; instants are ISO-8601 UTC.
 */
import { currencyExponent, isCurrencyCode } from '@reelstream/money';
import type { WalletRequest } from '@reelstream/contracts';
import { requestedChangeMinor, type TransactionOutcome } from '../audit/wallet-transaction.js';
import { BonusOutcomesFold } from '../bonus-outcomes.js';
import type { LogEvent, LogIndex } from '../log-index.js';
import { RecentMap } from '../recent-map.js';

export const EXPORT_KINDS = ['rounds', 'transactions', 'bonus-calls', 'sessions'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

type ExportCellType = 'text' | 'integer' | 'boolean' | 'instant';

export interface ExportColumn {
  readonly name: string;
  readonly type: ExportCellType;
  /** Whether the cell may be empty (null). */
  readonly nullable: boolean;
  readonly description: string;
}

type ExportCell = string | number | boolean | null;
export type ExportRow = Readonly<Record<string, ExportCell>>;

const column = (name: string, type: ExportCellType, description: string, nullable = false): ExportColumn => ({
  name,
  type,
  nullable,
  description,
});

const who = [
  column('operatorId', 'text', 'the operator (every player id is the operator’s own)'),
  column('playerId', 'text', 'the operator’s player id'),
];
const money = [
  column('currency', 'text', 'ISO 4217 code'),
  column('exponent', 'integer', 'decimals of the currency: amount = minor / 10^exponent'),
];

export const EXPORT_COLUMNS: { readonly [Kind in ExportKind]: readonly ExportColumn[] } = {
  rounds: [
    column('roundId', 'integer', 'the round'),
    ...who,
    column('providerId', 'integer', 'provider of the game'),
    column('gameId', 'integer', 'the game'),
    column('sessionKey', 'text', 'the launch session (its key, not the launch token)'),
    column('kind', 'text', '`paid`, or `free` for a free spin'),
    column('streamer', 'boolean', 'played in a streamer session (left out of the agent report)'),
    ...money,
    column('betMinor', 'integer', 'the stake (a free spin: its base bet, no money taken)'),
    column('winMinor', 'integer', 'the recorded win; null for a canceled round', true),
    column('status', 'text', '`settled` or `canceled`'),
    column('cancelReason', 'text', 'why a canceled round was canceled', true),
    column('bonusIssueId', 'integer', 'the bonus call of a free spin (or of a steered paid spin)', true),
    column('startedAt', 'instant', 'RoundStarted'),
    column('endedAt', 'instant', 'RoundSettled or RoundCanceled'),
  ],
  transactions: [
    column('transactionId', 'integer', 'the callback’s transactionId (a cancel’s own id)'),
    column('roundId', 'integer', 'the round it is for'),
    ...who,
    column('command', 'text', '`bet`, `win`, `betwin` or `cancel`'),
    column('cancelsTransactionId', 'integer', 'for a cancel: the transaction it reverts', true),
    column('streamer', 'boolean', 'a transaction of a streamer session’s round (left out of the agent report)'),
    column('freeSpin', 'boolean', 'a free spin’s win'),
    ...money,
    column(
      'amountMinor',
      'integer',
      'the signed change it asks for (a bet negative; a cancel the reverse of its transaction)',
    ),
    column('movedMinor', 'integer', 'what it moved as far as the log knows: amountMinor when applied, else 0'),
    column('status', 'text', '`applied`, `refused`, `unknown` (no answer), `dead_lettered` or `not_sent`'),
    column('statusCode', 'text', 'the operator’s code when it answered', true),
    column('attempts', 'integer', 'calls made'),
    column('requestedAt', 'instant', 'WalletRequested (a cancel: CancelRequested)'),
    column('answeredAt', 'instant', 'the answer that closed it (or its dead letter)'),
  ],
  'bonus-calls': [
    column('issueId', 'integer', 'the bonus call'),
    ...who,
    column('platformId', 'text', 'the operator’s own id of the call'),
    column('bonusType', 'integer', '1 Free Spin Bonus, 2 regular bonus call'),
    column('providerId', 'integer', 'provider of the bonus games'),
    column('gameIds', 'text', 'game ids, separated by a space'),
    ...money,
    column('spinsGranted', 'integer', 'spins the call grants', true),
    column('spinsUsed', 'integer', 'spins played'),
    column('totalWinMinor', 'integer', 'what the spins credited (capped)'),
    column('winCapMinor', 'integer', 'the call amount'),
    column('status', 'text', '`completed`, `expired` or `canceled`'),
    column('reason', 'text', 'why it ended', true),
    column('spinsForfeited', 'integer', 'spins left unplayed', true),
    column('registeredAt', 'instant', 'BonusCallRegistered'),
    column('closedAt', 'instant', 'its end'),
  ],
  sessions: [
    column('sessionKey', 'text', 'the launch session (its key, not the launch token)'),
    ...who,
    column('providerId', 'integer', 'provider of the launched game'),
    column('gameId', 'integer', 'the launched game'),
    column('currency', 'text', 'ISO 4217 code'),
    column('streamer', 'boolean', 'launched with isStreamer'),
    column('demo', 'boolean', 'a demo session (its rounds are not in the log)'),
    column('rounds', 'integer', 'rounds started in the session'),
    column('startedAt', 'instant', 'the launch'),
    column('lastActivityAt', 'instant', 'the last round event of the session, else the launch'),
    column('endedAt', 'instant', 'GameSessionEnded'),
    column('endReason', 'text', 'why it ended (`closed`, `expired`, `replaced`, …)'),
  ],
};

/** A row and the event that closed its subject. */
export interface EmittedRow {
  readonly row: ExportRow;
  readonly entry: LogEvent;
}

const exponentOf = (currency: string) => (isCurrencyCode(currency) ? currencyExponent(currency) : 0);

interface SessionState {
  startedAt: string;
  lastActivityAt: string;
  rounds: number;
  providerId: number;
  gameId: number;
  currency: string;
}

interface TransactionState {
  requestedAt: string;
  attempts: number;
  /** The outcome of its last row (a dead-lettered win re-driven later gets a second row). */
  emitted: TransactionOutcome | 'dead_lettered' | undefined;
  statusCode: string | undefined;
  cancel: { id: number; requestedAt: string; attempts: number; emitted: boolean } | undefined;
}

/**
 * Emits the rows of one kind as the log closes their subjects. Give it every event, in log order,
 * after `index.learn(entry)` (ExportReplayFold does both).
 */
export class ExportRowsFold {
  private readonly bonusOutcomes = new BonusOutcomesFold();
  private readonly sessions: RecentMap<string, SessionState>;
  private readonly transactions: RecentMap<string, TransactionState>;

  constructor(
    readonly kind: ExportKind,
    horizonMs: number,
    private readonly emit: (emitted: EmittedRow) => void,
  ) {
    this.sessions = new RecentMap(horizonMs);
    this.transactions = new RecentMap(horizonMs);
  }

  advance(nowMs: number): void {
    this.sessions.advance(nowMs);
    this.transactions.advance(nowMs);
  }

  apply(entry: LogEvent, index: LogIndex): void {
    switch (this.kind) {
      case 'rounds':
        return this.round(entry, index);
      case 'transactions':
        return this.transaction(entry, index);
      case 'bonus-calls':
        return this.bonusCall(entry);
      case 'sessions':
        return this.session(entry, index);
    }
  }

  private round(entry: LogEvent, index: LogIndex): void {
    const { event } = entry;
    if (event.type !== 'RoundSettled' && event.type !== 'RoundCanceled') return;
    const round = index.rounds.get(event.data.roundId);
    if (!round) return;
    const settled = event.type === 'RoundSettled';
    this.emit({
      entry,
      row: {
        roundId: event.data.roundId,
        operatorId: round.operatorId,
        playerId: round.playerId,
        providerId: round.providerId,
        gameId: round.gameId,
        sessionKey: round.sessionToken,
        kind: round.kind,
        streamer: round.streamer,
        currency: round.currency,
        exponent: exponentOf(round.currency),
        betMinor: round.betMinor,
        winMinor: settled ? event.data.winMinor : null,
        status: settled ? 'settled' : 'canceled',
        cancelReason: settled ? null : event.data.reason,
        bonusIssueId: round.bonusId === 0 ? null : round.bonusId,
        startedAt: round.startedAt,
        endedAt: settled ? event.data.settledAt : event.data.canceledAt,
      },
    });
  }

  private transaction(entry: LogEvent, index: LogIndex): void {
    const { event } = entry;
    const streamId = entry.streamId;
    if (event.type === 'WalletRequested') {
      this.transactions.set(streamId, {
        requestedAt: event.data.requestedAt,
        attempts: 0,
        emitted: undefined,
        statusCode: undefined,
        cancel: undefined,
      });
      return;
    }
    const state = this.transactions.get(streamId);
    const request = index.transactions.get(streamId);
    if (!state || !request) return;
    // As foldWalletTransaction: attempts and outcomes carrying command 'cancel' are the cancel's.
    const ofCancel = 'command' in event.data && event.data.command === 'cancel';
    switch (event.type) {
      case 'WalletAttempted':
        if (ofCancel && state.cancel) state.cancel.attempts += 1;
        else if (!ofCancel) state.attempts += 1;
        return;
      case 'WalletSucceeded':
        if (ofCancel || state.emitted === 'applied') return;
        state.statusCode = 'OK';
        return this.transactionRow(entry, index, request, state, 'applied', event.data.at);
      case 'WalletFailed':
        if (ofCancel) return;
        state.statusCode = event.data.statusCode;
        if (!event.data.final || state.emitted !== undefined) return;
        return this.transactionRow(
          entry,
          index,
          request,
          state,
          event.data.statusCode === undefined ? 'unknown' : 'refused',
          event.data.at,
        );
      case 'WinDeadLettered':
        return this.transactionRow(
          entry,
          index,
          request,
          state,
          event.data.attempts === 0 ? 'not_sent' : 'dead_lettered',
          event.data.at,
        );
      case 'CancelRequested':
        state.cancel = { id: event.data.cancelTransactionId, requestedAt: event.data.at, attempts: 0, emitted: false };
        return;
      case 'CancelSucceeded':
        return this.cancelRow(entry, index, request, state, event.data.at);
      default:
        return;
    }
  }

  private transactionBase(request: WalletRequest, index: LogIndex) {
    return {
      roundId: request.roundId,
      operatorId: request.operatorId,
      playerId: request.playerId,
      streamer: index.isStreamerRound(request.roundId),
      currency: request.currency,
      exponent: exponentOf(request.currency),
    };
  }

  private transactionRow(
    entry: LogEvent,
    index: LogIndex,
    request: WalletRequest,
    state: TransactionState,
    status: TransactionOutcome | 'dead_lettered',
    answeredAt: string,
  ): void {
    state.emitted = status;
    const amountMinor = requestedChangeMinor(request);
    const round = index.rounds.get(request.roundId);
    // As the agent report: a win is a free spin's when its round was free (or, the round forgotten, it names a bonus).
    const freeSpin = request.command === 'win' && (round ? round.kind === 'free' : request.bonusId !== 0);
    this.emit({
      entry,
      row: {
        ...this.transactionBase(request, index),
        transactionId: request.transactionId,
        command: request.command,
        cancelsTransactionId: null,
        freeSpin,
        amountMinor,
        movedMinor: status === 'applied' ? amountMinor : 0,
        status,
        statusCode: state.statusCode ?? null,
        attempts: state.attempts,
        requestedAt: state.requestedAt,
        answeredAt,
      },
    });
  }

  /** The cancel's own row, once: the reverse of its transaction, moving money only if that one was applied. */
  private cancelRow(
    entry: LogEvent,
    index: LogIndex,
    request: WalletRequest,
    state: TransactionState,
    answeredAt: string,
  ): void {
    const cancel = state.cancel;
    if (!cancel || cancel.emitted) return;
    cancel.emitted = true;
    const refMoved = state.emitted === 'applied' ? requestedChangeMinor(request) : 0;
    this.emit({
      entry,
      row: {
        ...this.transactionBase(request, index),
        transactionId: cancel.id,
        command: 'cancel',
        cancelsTransactionId: request.transactionId,
        freeSpin: false,
        amountMinor: -requestedChangeMinor(request),
        movedMinor: -refMoved,
        status: 'applied',
        statusCode: 'OK',
        attempts: cancel.attempts,
        requestedAt: cancel.requestedAt,
        answeredAt,
      },
    });
  }

  private bonusCall(entry: LogEvent): void {
    this.bonusOutcomes.apply(entry);
    const { event } = entry;
    if (event.type !== 'BonusCallCompleted' && event.type !== 'BonusCallExpired' && event.type !== 'BonusCallCanceled')
      return;
    const outcome = this.bonusOutcomes.take(event.data.issueId);
    if (!outcome) return;
    this.emit({
      entry,
      row: {
        issueId: outcome.issueId,
        operatorId: outcome.operatorId,
        playerId: outcome.playerId,
        platformId: outcome.platformId,
        bonusType: outcome.bonusType,
        providerId: outcome.providerId,
        gameIds: outcome.gameIds,
        currency: outcome.currency,
        exponent: exponentOf(outcome.currency),
        spinsGranted: outcome.spinsGranted,
        spinsUsed: outcome.spinsUsed,
        totalWinMinor: outcome.totalWinMinor,
        winCapMinor: outcome.winCapMinor,
        status: outcome.status,
        reason: outcome.reason,
        spinsForfeited: outcome.spinsForfeited,
        registeredAt: outcome.registeredAt,
        closedAt: outcome.closedAt,
      },
    });
  }

  private session(entry: LogEvent, index: LogIndex): void {
    const { event } = entry;
    switch (event.type) {
      case 'GameSessionStarted': {
        const { token, startedAt, providerId, gameId, currency } = event.data;
        this.sessions.set(token, { startedAt, lastActivityAt: startedAt, rounds: 0, providerId, gameId, currency });
        return;
      }
      case 'RoundStarted':
        return this.touch(event.data.sessionToken, event.data.startedAt, 1);
      case 'RoundSettled':
        return this.touch(index.rounds.get(event.data.roundId)?.sessionToken, event.data.settledAt, 0);
      case 'RoundCanceled':
        return this.touch(index.rounds.get(event.data.roundId)?.sessionToken, event.data.canceledAt, 0);
      case 'GameSessionEnded': {
        const state = this.sessions.get(event.data.token);
        const facts = index.sessions.get(event.data.token);
        if (!state || !facts) return;
        this.sessions.delete(event.data.token);
        this.emit({
          entry,
          row: {
            sessionKey: event.data.token,
            operatorId: facts.operatorId,
            playerId: facts.playerId,
            providerId: state.providerId,
            gameId: state.gameId,
            currency: state.currency,
            streamer: facts.isStreamer,
            demo: facts.demo,
            rounds: state.rounds,
            startedAt: state.startedAt,
            lastActivityAt: state.lastActivityAt,
            endedAt: event.data.endedAt,
            endReason: event.data.reason,
          },
        });
        return;
      }
      default:
        return;
    }
  }

  private touch(token: string | undefined, at: string, rounds: number): void {
    const state = token === undefined ? undefined : this.sessions.get(token);
    if (!state) return;
    state.rounds += rounds;
    if (at > state.lastActivityAt) state.lastActivityAt = at;
  }
}
