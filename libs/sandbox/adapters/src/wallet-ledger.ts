/**
 * The reference wallet's rules, each callback in one SQLite transaction:
 * - a transactionId is applied once; the same request again gets the original response; the
 *   same id with another request is refused (ERR_UNKNOWN) and changes nothing;
 * - bet and betwin need the money (ERR_NOT_ENOUGH_MONEY otherwise); betwin moves both amounts
 *   or neither;
 * - cancel reverts its whole transaction once — a betwin's stake comes back and its win goes —
 *   and answers OK for an unknown or already canceled one (D9); a cancel that overtakes its bet
 *   is remembered, and the late bet is refused; a cancel whose amounts are not what its
 *   transaction carried (D9 amended) is refused and changes nothing.
 */
import { formatAmount, tryParseAmount } from '@reelstream/money';
import type {
  BetCallback,
  BetwinCallback,
  CallbackRequest,
  CallbackStatusCode,
  CancelCallback,
  WinCallback,
} from '@reelstream/contracts';
import { requestHash } from './request-hash.js';
import type { SandboxDatabase } from './wallet-database.js';

export interface WalletResponse {
  balance: number;
  statusCode: CallbackStatusCode;
  /** Why, on a non-OK answer (extra keys are allowed in replies). */
  message?: string;
}

/** applied: money moved (or a cancel took effect); rejected: a non-OK answer that is recorded and replayed. */
type LedgerOutcome = 'applied' | 'rejected' | 'replayed' | 'conflict';

export interface LedgerAnswer {
  outcome: LedgerOutcome;
  response: WalletResponse;
}

export type CancelEffect = 'refunded' | 'nothing_to_refund' | 'already_canceled' | 'preempted';

export interface SandboxWalletOptions {
  /** Balance (currency units) of an account opened for a player seen the first time; undefined: unknown players are ERR_NOT_AUTHENTICATED. */
  autoCreateBalance: number | undefined;
  /** The operator's currency, for callbacks without one (win, betwin, cancel) of a player without a matching round. */
  defaultCurrency(operatorId: string): string | undefined;
  now(): string;
}

interface TransactionRow {
  transaction_id: number;
  command: string;
  player_id: string;
  currency: string;
  debit_minor: number;
  credit_minor: number;
  applied: number;
  canceled_by: number | null;
  request_hash: string;
  request_json: string;
  response_json: string;
}

interface NewTransaction {
  operatorId: string;
  callback: CallbackRequest;
  hash: string;
  currency: string;
  debitMinor: number;
  creditMinor: number;
  statusCode: CallbackStatusCode;
  applied: boolean;
  cancelEffect?: CancelEffect;
  /** Set when the transaction arrives already canceled (its cancel overtook it). */
  canceledBy?: number;
  balanceMinor: number;
  /** The answer's message; none when undefined. */
  message?: string | undefined;
}

/** What every outcome of one callback records alike. */
type TransactionBase = Omit<NewTransaction, 'statusCode' | 'applied' | 'balanceMinor'>;

export class SandboxWallet {
  private readonly byId;
  private readonly insertTransaction;
  private readonly markCanceled;
  private readonly accountRow;
  private readonly accountCurrencies;
  private readonly roundCurrency;
  private readonly insertAccount;
  private readonly moveBalance;
  private readonly cancelMark;
  private readonly insertCancelMark;
  private readonly processTransaction;
  private readonly atomicTransaction;

  constructor(
    private readonly db: SandboxDatabase,
    private readonly options: SandboxWalletOptions,
  ) {
    this.byId = db.prepare<[string, number], TransactionRow>(
      'SELECT * FROM sandbox_transactions WHERE operator_id = ? AND transaction_id = ?',
    );
    this.insertTransaction = db.prepare(`INSERT INTO sandbox_transactions
      (operator_id, transaction_id, command, player_id, round_id, currency, debit_minor, credit_minor, ref_transaction_id, status_code, applied, canceled_by, cancel_effect, request_hash, request_json, response_json, created_at)
      VALUES (@operatorId, @transactionId, @command, @playerId, @roundId, @currency, @debit, @credit, @ref, @statusCode, @applied, @canceledBy, @cancelEffect, @hash, @request, @response, @createdAt)`);
    this.markCanceled = db.prepare<[number, string, number]>(
      'UPDATE sandbox_transactions SET canceled_by = ? WHERE operator_id = ? AND transaction_id = ?',
    );
    this.accountRow = db.prepare<[string, string, string], { balance_minor: number }>(
      'SELECT balance_minor FROM sandbox_accounts WHERE operator_id = ? AND player_id = ? AND currency = ?',
    );
    this.accountCurrencies = db
      .prepare<[string, string], string>(
        'SELECT currency FROM sandbox_accounts WHERE operator_id = ? AND player_id = ? ORDER BY currency',
      )
      .pluck();
    this.roundCurrency = db
      .prepare<[string, string, number], string>(
        'SELECT currency FROM sandbox_transactions WHERE operator_id = ? AND player_id = ? AND round_id = ? ORDER BY seq LIMIT 1',
      )
      .pluck();
    this.insertAccount = db.prepare<[string, string, string, number, string]>(
      'INSERT INTO sandbox_accounts (operator_id, player_id, currency, balance_minor, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.moveBalance = db.prepare<[number, string, string, string, string]>(
      'UPDATE sandbox_accounts SET balance_minor = balance_minor + ?, updated_at = ? WHERE operator_id = ? AND player_id = ? AND currency = ?',
    );
    this.cancelMark = db.prepare<[string, number], { cancel_transaction_id: number }>(
      'SELECT cancel_transaction_id FROM sandbox_cancel_marks WHERE operator_id = ? AND ref_transaction_id = ?',
    );
    this.insertCancelMark = db.prepare<[string, number, number, string]>(
      'INSERT OR IGNORE INTO sandbox_cancel_marks (operator_id, ref_transaction_id, cancel_transaction_id, created_at) VALUES (?, ?, ?, ?)',
    );
    this.processTransaction = db.transaction((operatorId: string, callback: CallbackRequest) =>
      this.decide(operatorId, callback),
    );
    this.atomicTransaction = db.transaction((work: () => unknown) => work());
  }

  /** Applies one verified, parsed callback. */
  process(operatorId: string, callback: CallbackRequest): LedgerAnswer {
    return this.processTransaction.immediate(operatorId, callback);
  }

  /**
   * Runs `work` in one transaction of the wallet's file: a callback's ledger change and its line in
   * the request log commit together (one commit per callback, and a crash cannot keep one without the other).
   */
  atomically<T>(work: () => T): T {
    return this.atomicTransaction.immediate(work) as T;
  }

  private decide(operatorId: string, callback: CallbackRequest): LedgerAnswer {
    const hash = requestHash(callback);
    const existing = this.byId.get(operatorId, callback.transactionId);
    if (existing) {
      if (existing.request_hash === hash)
        return { outcome: 'replayed', response: JSON.parse(existing.response_json) as WalletResponse };
      const balance =
        existing.player_id === callback.playerId
          ? this.balanceOf(operatorId, existing.player_id, existing.currency)
          : undefined;
      return {
        outcome: 'conflict',
        response: {
          balance: balance === undefined ? 0 : formatAmount(balance, existing.currency),
          statusCode: 'ERR_UNKNOWN',
          message: `transactionId ${callback.transactionId} was already used for a different request`,
        },
      };
    }
    switch (callback.command) {
      case 'bet':
        return this.bet(operatorId, callback, hash);
      case 'win':
        return this.win(operatorId, callback, hash);
      case 'betwin':
        return this.betwin(operatorId, callback, hash);
      case 'cancel':
        return this.cancel(operatorId, callback, hash);
      default: {
        const unreachable: never = callback;
        return unreachable;
      }
    }
  }

  private bet(operatorId: string, callback: BetCallback, hash: string): LedgerAnswer {
    const base = { operatorId, callback, hash, currency: callback.currency, debitMinor: 0, creditMinor: 0 };
    const refused = this.refusedUpFront(base);
    if (refused) return refused;
    const amount = tryParseAmount(callback.amount, callback.currency);
    const balance = this.openAccount(operatorId, callback.playerId, callback.currency);
    if (balance === undefined)
      return this.refuse(
        base,
        'ERR_NOT_AUTHENTICATED',
        0,
        `player ${callback.playerId} has no ${callback.currency} account`,
      );
    if (!amount.ok) return this.refuse(base, 'ERR_UNKNOWN', balance, amount.error.message);
    if (balance < amount.minor) return this.refuse(base, 'ERR_NOT_ENOUGH_MONEY', balance);
    return this.record({
      ...base,
      debitMinor: amount.minor,
      statusCode: 'OK',
      applied: true,
      balanceMinor: this.move(operatorId, callback.playerId, callback.currency, -amount.minor),
    });
  }

  private win(operatorId: string, callback: WinCallback, hash: string): LedgerAnswer {
    const account = this.roundAccount(operatorId, callback, hash);
    if ('answer' in account) return account.answer;
    const { base, currency, balance } = account;
    const amount = tryParseAmount(callback.amount, currency);
    if (!amount.ok) return this.refuse(base, 'ERR_UNKNOWN', balance, amount.error.message);
    return this.record({
      ...base,
      creditMinor: amount.minor,
      statusCode: 'OK',
      applied: true,
      balanceMinor: this.move(operatorId, callback.playerId, currency, amount.minor),
    });
  }

  private betwin(operatorId: string, callback: BetwinCallback, hash: string): LedgerAnswer {
    const account = this.roundAccount(operatorId, callback, hash);
    if ('answer' in account) return account.answer;
    const { base, currency, balance } = account;
    const bet = tryParseAmount(callback.betAmount, currency);
    const win = tryParseAmount(callback.winAmount, currency);
    if (!bet.ok || !win.ok)
      return this.refuse(base, 'ERR_UNKNOWN', balance, (bet.ok ? (win as { error: Error }).error : bet.error).message);
    if (balance < bet.minor) return this.refuse(base, 'ERR_NOT_ENOUGH_MONEY', balance);
    // One UPDATE inside the callback's transaction: the bet and the win move together or not at all.
    const after = this.move(operatorId, callback.playerId, currency, win.minor - bet.minor);
    return this.record({
      ...base,
      debitMinor: bet.minor,
      creditMinor: win.minor,
      statusCode: 'OK',
      applied: true,
      balanceMinor: after,
    });
  }

  private cancel(operatorId: string, callback: CancelCallback, hash: string): LedgerAnswer {
    const ref = this.byId.get(operatorId, callback.refTransactionId);
    const currency = ref?.currency ?? this.currencyFor(operatorId, callback.playerId, callback.roundId) ?? 'XXX';
    const base = { operatorId, callback, hash, currency, statusCode: 'OK' as const, debitMinor: 0, creditMinor: 0 };
    const balanceNow = () =>
      (currency === 'XXX' ? undefined : this.openAccount(operatorId, callback.playerId, currency)) ?? 0;
    if (ref && ref.player_id !== callback.playerId) {
      return this.refuse(
        base,
        'ERR_UNKNOWN',
        0,
        `transaction ${callback.refTransactionId} is not player ${callback.playerId}'s`,
      );
    }
    const mismatch = ref && cancelMismatch(callback, ref);
    if (mismatch) return this.refuse(base, 'ERR_UNKNOWN', balanceNow(), mismatch);
    if (!ref) {
      // The cancel overtook its transaction (a bet still on its way): remember it, so the bet is refused when it lands.
      this.insertCancelMark.run(operatorId, callback.refTransactionId, callback.transactionId, this.options.now());
      return this.record({
        ...base,
        applied: true,
        cancelEffect: 'preempted',
        balanceMinor: balanceNow(),
      });
    }
    if (ref.canceled_by !== null || ref.command === 'cancel') {
      return this.record({
        ...base,
        applied: false,
        cancelEffect: 'already_canceled',
        balanceMinor: balanceNow(),
      });
    }
    this.markCanceled.run(callback.transactionId, operatorId, ref.transaction_id);
    if (ref.applied === 0)
      return this.record({
        ...base,
        applied: true,
        cancelEffect: 'nothing_to_refund',
        balanceMinor: balanceNow(),
      });
    const after = this.move(operatorId, ref.player_id, ref.currency, ref.debit_minor - ref.credit_minor);
    return this.record({
      ...base,
      debitMinor: ref.credit_minor,
      creditMinor: ref.debit_minor,
      applied: true,
      cancelEffect: 'refunded',
      balanceMinor: after,
    });
  }

  /**
   * win and betwin carry no currency: they move money on the account of their round (see
   * `currencyFor`). The answer instead when their cancel came first or the player has no account.
   */
  private roundAccount(
    operatorId: string,
    callback: WinCallback | BetwinCallback,
    hash: string,
  ): { answer: LedgerAnswer } | { base: TransactionBase; currency: string; balance: number } {
    const currency = this.currencyFor(operatorId, callback.playerId, callback.roundId);
    const base = { operatorId, callback, hash, currency: currency ?? 'XXX', debitMinor: 0, creditMinor: 0 };
    const refused = this.refusedUpFront(base);
    if (refused) return { answer: refused };
    const balance = currency === undefined ? undefined : this.openAccount(operatorId, callback.playerId, currency);
    if (currency === undefined || balance === undefined) {
      return {
        answer: this.refuse(base, 'ERR_NOT_AUTHENTICATED', 0, `player ${callback.playerId} has no account`),
      };
    }
    return { base, currency, balance };
  }

  /** A callback refused without moving money: recorded, with the balance it found. */
  private refuse(
    base: TransactionBase,
    statusCode: CallbackStatusCode,
    balanceMinor: number,
    message?: string,
  ): LedgerAnswer {
    return this.record({ ...base, statusCode, applied: false, balanceMinor, message });
  }

  /** A transaction whose cancel arrived first is refused: the round it belonged to is already canceled. */
  private refusedUpFront(base: TransactionBase): LedgerAnswer | undefined {
    const mark = this.cancelMark.get(base.operatorId, base.callback.transactionId);
    if (!mark) return undefined;
    const balance = this.balanceOf(base.operatorId, base.callback.playerId, base.currency) ?? 0;
    return this.record({
      ...base,
      statusCode: 'ERR_UNKNOWN',
      applied: false,
      canceledBy: mark.cancel_transaction_id,
      balanceMinor: balance,
      message: `transaction ${base.callback.transactionId} was canceled (cancel ${mark.cancel_transaction_id}) before it arrived`,
    });
  }

  private record(transaction: NewTransaction): LedgerAnswer {
    const response: WalletResponse = {
      balance: transaction.currency === 'XXX' ? 0 : formatAmount(transaction.balanceMinor, transaction.currency),
      statusCode: transaction.statusCode,
      ...(transaction.message === undefined ? {} : { message: transaction.message }),
    };
    const { callback } = transaction;
    this.insertTransaction.run({
      operatorId: transaction.operatorId,
      transactionId: callback.transactionId,
      command: callback.command,
      playerId: callback.playerId,
      roundId: callback.roundId,
      currency: transaction.currency,
      debit: transaction.debitMinor,
      credit: transaction.creditMinor,
      ref: callback.command === 'cancel' ? callback.refTransactionId : null,
      statusCode: transaction.statusCode,
      applied: transaction.applied ? 1 : 0,
      canceledBy: transaction.canceledBy ?? null,
      cancelEffect: transaction.cancelEffect ?? null,
      hash: transaction.hash,
      request: JSON.stringify(callback),
      response: JSON.stringify(response),
      createdAt: this.options.now(),
    });
    return { outcome: transaction.statusCode === 'OK' ? 'applied' : 'rejected', response };
  }

  private balanceOf(operatorId: string, playerId: string, currency: string): number | undefined {
    return this.accountRow.get(operatorId, playerId, currency)?.balance_minor;
  }

  /** The account's balance, opening it when unknown players get one; undefined when the player is unknown. */
  private openAccount(operatorId: string, playerId: string, currency: string): number | undefined {
    const balance = this.balanceOf(operatorId, playerId, currency);
    if (balance !== undefined || this.options.autoCreateBalance === undefined) return balance;
    const opening = tryParseAmount(this.options.autoCreateBalance, currency);
    const minor = opening.ok ? opening.minor : 0;
    this.insertAccount.run(operatorId, playerId, currency, minor, this.options.now());
    return minor;
  }

  private move(operatorId: string, playerId: string, currency: string, deltaMinor: number): number {
    this.moveBalance.run(deltaMinor, this.options.now(), operatorId, playerId, currency);
    const after = this.balanceOf(operatorId, playerId, currency);
    if (after === undefined || !Number.isSafeInteger(after))
      throw new Error(`account ${operatorId}/${playerId}/${currency} vanished or overflowed`);
    return after;
  }

  /**
   * The round's currency (its bet's); else the operator's, when the player has no account or one in it; else the
   * player's first account's by code (their only one, mostly).
   */
  private currencyFor(operatorId: string, playerId: string, roundId: number): string | undefined {
    const fromRound = this.roundCurrency.get(operatorId, playerId, roundId);
    if (fromRound !== undefined && fromRound !== 'XXX') return fromRound;
    const currencies = this.accountCurrencies.all(operatorId, playerId);
    const operatorCurrency = this.options.defaultCurrency(operatorId);
    if (operatorCurrency !== undefined && (currencies.length === 0 || currencies.includes(operatorCurrency)))
      return operatorCurrency;
    return currencies[0];
  }
}

/** Why a cancel's amounts are not what its transaction carried (`amount`; `betAmount` and `winAmount`), or undefined. */
function cancelMismatch(cancel: CancelCallback, ref: TransactionRow): string | undefined {
  const original = JSON.parse(ref.request_json) as CallbackRequest;
  const carried =
    cancel.amount !== undefined
      ? { amount: cancel.amount }
      : { betAmount: cancel.betAmount, winAmount: cancel.winAmount };
  const expected =
    original.command === 'bet'
      ? { amount: original.amount }
      : original.command === 'betwin'
        ? { betAmount: original.betAmount, winAmount: original.winAmount }
        : undefined;
  if (expected === undefined || JSON.stringify(carried) === JSON.stringify(expected)) return undefined;
  return `cancel of ${original.command} ${ref.transaction_id} carries ${JSON.stringify(carried)}, but that ${original.command} carried ${JSON.stringify(expected)}`;
}
