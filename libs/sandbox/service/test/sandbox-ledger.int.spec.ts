/**
 * The reference wallet's ledger driven directly, on its own SQLite database: what each answer
 * records (applied or not, the outcome, the currency), the refusals' messages, the currency a
 * callback without one goes to, and how the sandbox opens and checks its file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import type { BetCallback, BetwinCallback, CallbackRequest, CancelCallback, WinCallback } from '@reelstream/contracts';
import {
  checkSandboxDatabase,
  LedgerViews,
  openSandboxDatabase,
  SandboxWallet,
  type TransactionView,
} from '@reelstream/sandbox-adapters';
import { betCallback, newRound, nextId } from './sandbox-client.js';

const NOW = '2026-05-01T12:00:00.000Z';
type WalletOptions = ConstructorParameters<typeof SandboxWallet>[1];

const opened: ReturnType<typeof openSandboxDatabase>[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});
const folder = mkdtempSync(join(tmpdir(), 'sandbox-ledger-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A wallet of operator acme (EUR) on a new in-memory database, newcomers opening with 100, unless `change` says otherwise. */
function openWallet(change: Partial<WalletOptions> = {}) {
  const db = openSandboxDatabase(':memory:');
  opened.push(db);
  const wallet = new SandboxWallet(db, {
    autoCreateBalance: 100,
    defaultCurrency: () => 'EUR',
    now: () => NOW,
    ...change,
  });
  const views = new LedgerViews(db, () => NOW);
  return {
    wallet,
    views,
    process: (callback: CallbackRequest) => wallet.process('acme', callback),
    /** The player's ledger rows: command, status code, applied, cancel effect. */
    rows: (playerId: string) =>
      views.transactions({ playerId }).map((row) => [row.command, row.statusCode, row.applied, row.cancelEffect]),
    balances: (playerId: string) =>
      views.accounts('acme', playerId).map((account) => [account.currency, account.balanceMinor]),
  };
}

const bet = (playerId: string, amount: number): BetCallback => betCallback(playerId, amount);
const win = (playerId: string, amount: number, roundId?: number): WinCallback => ({
  command: 'win',
  ...newRound(playerId),
  ...(roundId === undefined ? {} : { roundId }),
  amount,
  isRoundFinished: true,
});
const betwin = (playerId: string, betAmount: number, winAmount: number): BetwinCallback => ({
  command: 'betwin',
  ...newRound(playerId),
  betAmount,
  winAmount,
});
/** The cancel of `of` carrying `amount`, sent by `playerId` (the transaction's own player unless said otherwise). */
const cancel = (
  of: { transactionId: number; playerId: string; roundId: number },
  amount: number,
  playerId = of.playerId,
): CancelCallback => ({
  command: 'cancel',
  transactionId: nextId(),
  refTransactionId: of.transactionId,
  playerId,
  roundId: of.roundId,
  providerId: 1,
  gameCode: 10,
  amount,
  bonusId: 0,
  timestamp: 1_777_000_001,
});
const ok = (balance: number) => ({ outcome: 'applied', response: { balance, statusCode: 'OK' } });

describe('what each answer records', () => {
  it('money that moved is applied and answered OK without a message; a refused amount is rejected with its reason and not applied', () => {
    const { process, rows } = openWallet();
    const refused = (message: string) => ({
      outcome: 'rejected',
      response: { balance: 100, statusCode: 'ERR_UNKNOWN', message },
    });
    const tooPrecise = 'amount 1.005 has more than 2 decimal place(s) allowed for EUR';
    expect(process(bet('mover', 1.005))).toStrictEqual(refused(tooPrecise));
    expect(process(win('mover', 1.005))).toStrictEqual(refused(tooPrecise));
    expect(process(betwin('mover', 1.005, 1))).toStrictEqual(refused(tooPrecise));
    expect(process(betwin('mover', 1, 1.005))).toStrictEqual(refused(tooPrecise));
    expect(process(win('mover', 5))).toStrictEqual(ok(105));
    expect(rows('mover')).toEqual([
      ['bet', 'ERR_UNKNOWN', false, null],
      ['win', 'ERR_UNKNOWN', false, null],
      ['betwin', 'ERR_UNKNOWN', false, null],
      ['betwin', 'ERR_UNKNOWN', false, null],
      ['win', 'OK', true, null],
    ]);
  });

  it('a betwin or a bet of exactly the balance is accepted; a cent more is not enough money', () => {
    const { process, balances } = openWallet();
    expect(process(betwin('all_in', 100, 30))).toStrictEqual(ok(30));
    expect(process(bet('all_in', 30))).toStrictEqual(ok(0));
    expect(process(betwin('all_in', 0.01, 0))).toStrictEqual({
      outcome: 'rejected',
      response: { balance: 0, statusCode: 'ERR_NOT_ENOUGH_MONEY' },
    });
    expect(balances('all_in')).toEqual([['EUR', 0]]);
  });

  it('a transactionId reused by another player is a conflict answered with balance 0, not with the first player’s balance', () => {
    const { process, balances } = openWallet();
    const placed = bet('first_user', 10);
    process(placed);
    const conflict = (balance: number) => ({
      outcome: 'conflict',
      response: {
        balance,
        statusCode: 'ERR_UNKNOWN',
        message: `transactionId ${placed.transactionId} was already used for a different request`,
      },
    });
    expect(process({ ...placed, playerId: 'second_user' })).toStrictEqual(conflict(0));
    expect(process({ ...placed, amount: 20 })).toStrictEqual(conflict(90));
    expect(balances('second_user')).toEqual([]);
    expect(balances('first_user')).toEqual([['EUR', 9_000]]);
  });

  it('refuses to move a balance past the largest safe integer: the callback throws and leaves nothing behind', () => {
    const { wallet, views, balances } = openWallet();
    views.setBalance('acme', 'whale', 'EUR', Number.MAX_SAFE_INTEGER);
    expect(() => wallet.process('acme', win('whale', 1))).toThrow(
      new Error('account acme/whale/EUR vanished or overflowed'),
    );
    expect(balances('whale')).toEqual([['EUR', Number.MAX_SAFE_INTEGER]]);
    expect(views.transactions({ playerId: 'whale' })).toEqual([]);
  });

  it('commits a callback and its request-log line together: both, or neither when the work fails after both', () => {
    const { wallet, views, balances } = openWallet();
    const logLine = (transactionId: number) => ({
      operatorId: 'acme',
      playerId: 'ann',
      command: 'win',
      transactionId,
      outcome: 'applied' as const,
      statusCode: 'OK',
      faultId: null,
    });
    const kept = win('ann', 5);
    wallet.atomically(() => {
      wallet.process('acme', kept);
      views.logRequest(logLine(kept.transactionId));
    });
    const lost = win('ann', 7);
    expect(() =>
      wallet.atomically(() => {
        wallet.process('acme', lost);
        views.logRequest(logLine(lost.transactionId));
        throw new Error('the answer could not be written');
      }),
    ).toThrow('the answer could not be written');
    expect(balances('ann')).toEqual([['EUR', 10_500]]);
    expect(views.transactions({ playerId: 'ann' }).map((row) => row.transactionId)).toEqual([kept.transactionId]);
    expect(views.requests({ playerId: 'ann' }).map((row) => row.transactionId)).toEqual([kept.transactionId]);
  });
});

describe('players without an account', () => {
  it('without auto-created accounts, a bet names the currency the player has no account in, and a win says the player has none', () => {
    const { process, rows, balances } = openWallet({ autoCreateBalance: undefined });
    expect(process(bet('stranger', 1))).toStrictEqual({
      outcome: 'rejected',
      response: { balance: 0, statusCode: 'ERR_NOT_AUTHENTICATED', message: 'player stranger has no EUR account' },
    });
    expect(process(win('stranger', 1))).toStrictEqual({
      outcome: 'rejected',
      response: { balance: 0, statusCode: 'ERR_NOT_AUTHENTICATED', message: 'player stranger has no account' },
    });
    expect(rows('stranger')).toEqual([
      ['bet', 'ERR_NOT_AUTHENTICATED', false, null],
      ['win', 'ERR_NOT_AUTHENTICATED', false, null],
    ]);
    expect(balances('stranger')).toEqual([]);
  });

  it('a win with no currency to go by (no round, no account, no operator currency) is refused and recorded in XXX, balance 0', () => {
    const { process, views } = openWallet({ defaultCurrency: () => undefined });
    expect(process(win('nowhere', 1))).toStrictEqual({
      outcome: 'rejected',
      response: { balance: 0, statusCode: 'ERR_NOT_AUTHENTICATED', message: 'player nowhere has no account' },
    });
    expect(views.transactions({ playerId: 'nowhere' }).map((row) => row.currency)).toEqual(['XXX']);
  });

  it('a later win in a round that so far holds only such an XXX row goes to the account the player has opened since', () => {
    const { process, balances } = openWallet({ defaultCurrency: () => undefined });
    const early = win('latecomer', 1);
    expect(process(early).outcome).toBe('rejected');
    expect(process(bet('latecomer', 10))).toStrictEqual(ok(90));
    expect(process(win('latecomer', 5, early.roundId))).toStrictEqual(ok(95));
    expect(balances('latecomer')).toEqual([['EUR', 9_500]]);
  });
});

describe('the currency of a win in a round the wallet has not seen', () => {
  it('is the operator’s when the player has an account in it or none at all, else the player’s first account’s by code', () => {
    const { process, views, balances } = openWallet({ defaultCurrency: () => 'GBP' });
    for (const [playerId, currencies] of [
      ['eur_usd', ['EUR', 'USD']],
      ['gbp_usd', ['GBP', 'USD']],
      ['usd_only', ['USD']],
    ] as const)
      for (const currency of currencies) views.setBalance('acme', playerId, currency, 1_000);
    for (const playerId of ['eur_usd', 'gbp_usd', 'usd_only', 'newcomer']) process(win(playerId, 5));
    expect(balances('eur_usd')).toEqual([
      ['EUR', 1_500],
      ['USD', 1_000],
    ]);
    expect(balances('gbp_usd')).toEqual([
      ['GBP', 1_500],
      ['USD', 1_000],
    ]);
    expect(balances('usd_only')).toEqual([['USD', 1_500]]);
    expect(balances('newcomer')).toEqual([['GBP', 10_500]]);
  });
});

describe('cancel', () => {
  it('records which cancels took effect: a refund, a cancel with nothing to refund and one that came first are applied; a second cancel and the cancel of a cancel are not', () => {
    const { process, views } = openWallet();
    const placed = bet('canceler', 30);
    process(placed);
    const first = cancel(placed, 30);
    expect(process(first)).toStrictEqual(ok(100));
    expect(process(cancel(placed, 30))).toStrictEqual(ok(100));
    // The cancel of a cancel changes nothing: the refund stays.
    expect(process(cancel(first, 30))).toStrictEqual(ok(100));
    const refused = bet('canceler', 500);
    expect(process(refused).outcome).toBe('rejected');
    const ofRefused = cancel(refused, 500);
    expect(process(ofRefused)).toStrictEqual(ok(100));
    const late = bet('canceler', 40);
    const early = cancel(late, 40);
    expect(process(early)).toStrictEqual(ok(100));
    expect(process(late)).toStrictEqual({
      outcome: 'rejected',
      response: {
        balance: 100,
        statusCode: 'ERR_UNKNOWN',
        message: `transaction ${late.transactionId} was canceled (cancel ${early.transactionId}) before it arrived`,
      },
    });
    const row = (entry: TransactionView) => [
      entry.command,
      entry.statusCode,
      entry.applied,
      entry.cancelEffect,
      entry.canceledBy,
    ];
    expect(views.transactions({ playerId: 'canceler' }).map(row)).toEqual([
      ['bet', 'OK', true, null, first.transactionId],
      ['cancel', 'OK', true, 'refunded', null],
      ['cancel', 'OK', false, 'already_canceled', null],
      ['cancel', 'OK', false, 'already_canceled', null],
      ['bet', 'ERR_NOT_ENOUGH_MONEY', false, null, ofRefused.transactionId],
      ['cancel', 'OK', true, 'nothing_to_refund', null],
      ['cancel', 'OK', true, 'preempted', null],
      ['bet', 'ERR_UNKNOWN', false, null, early.transactionId],
    ]);
  });

  it('takes a win back', () => {
    const { process, rows } = openWallet();
    const won = win('lucky', 5);
    expect(process(won)).toStrictEqual(ok(105));
    expect(process(cancel(won, 5))).toStrictEqual(ok(100));
    expect(rows('lucky')).toEqual([
      ['win', 'OK', true, null],
      ['cancel', 'OK', true, 'refunded'],
    ]);
  });

  it('refuses a cancel whose amount is not its bet’s, records it as not applied and refunds nothing', () => {
    const { process, rows } = openWallet();
    const placed = bet('mismatch', 20);
    process(placed);
    expect(process(cancel(placed, 2))).toStrictEqual({
      outcome: 'rejected',
      response: {
        balance: 80,
        statusCode: 'ERR_UNKNOWN',
        message: `cancel of bet ${placed.transactionId} carries {"amount":2}, but that bet carried {"amount":20}`,
      },
    });
    expect(rows('mismatch')).toEqual([
      ['bet', 'OK', true, null],
      ['cancel', 'ERR_UNKNOWN', false, null],
    ]);
  });

  it('refuses a cancel naming another player’s transaction, and that transaction stays as it was', () => {
    const { process, rows, balances } = openWallet();
    const placed = bet('owner', 30);
    process(placed);
    expect(process(cancel(placed, 30, 'intruder'))).toStrictEqual({
      outcome: 'rejected',
      response: {
        balance: 0,
        statusCode: 'ERR_UNKNOWN',
        message: `transaction ${placed.transactionId} is not player intruder's`,
      },
    });
    expect(rows('intruder')).toEqual([['cancel', 'ERR_UNKNOWN', false, null]]);
    expect(balances('intruder')).toEqual([]);
    expect(balances('owner')).toEqual([['EUR', 7_000]]);
    expect(process(cancel(placed, 30))).toStrictEqual(ok(100));
  });

  it('answers OK with balance 0 to a cancel with no currency to go by, recorded in XXX without opening an account', () => {
    const { process, views, balances } = openWallet({ defaultCurrency: () => undefined });
    expect(process(cancel(bet('ghost', 5), 5))).toStrictEqual(ok(0));
    expect(
      views.transactions({ playerId: 'ghost' }).map((row) => [row.command, row.currency, row.cancelEffect]),
    ).toEqual([['cancel', 'XXX', 'preempted']]);
    expect(balances('ghost')).toEqual([]);
  });
});

describe('the sandbox database', () => {
  it('opens its file in WAL mode, creating the folders on its path, with NORMAL sync unless FULL is asked', () => {
    const normal = openSandboxDatabase(join(folder, 'nested', 'deeper', 'sandbox.db'));
    opened.push(normal);
    expect(normal.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(normal.pragma('synchronous', { simple: true })).toBe(1);
    const full = openSandboxDatabase(join(folder, 'full.db'), { synchronous: 'FULL' });
    opened.push(full);
    expect(full.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('keeps :memory: in the process', () => {
    const db = openSandboxDatabase(':memory:');
    opened.push(db);
    expect(db.pragma('journal_mode', { simple: true })).toBe('memory');
  });

  it('the readiness check passes on an open database and throws once it is closed', () => {
    const db = openSandboxDatabase(':memory:');
    expect(() => checkSandboxDatabase(db)).not.toThrow();
    db.close();
    expect(() => checkSandboxDatabase(db)).toThrow(/^The database connection is not open$/);
  });
});
