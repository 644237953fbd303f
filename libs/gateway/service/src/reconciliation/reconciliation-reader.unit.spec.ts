import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  eventToAppend,
  playerBonusStream,
  roundStream,
  walletTxStream,
  WIN_REDRIVE_DEFAULTS,
  type DomainEvent,
  type WalletBetRequest,
  type WalletBetwinRequest,
  type WalletTxEvent,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';
import { startReconciliationProjection, type ReconciliationProjection } from '@reelstream/wallet-application';
import { evolve, initialWalletTxState, type WalletTxState } from '@reelstream/wallet-domain';
import { writePaidRound, type PaidRound } from '../../test/support/wallet-history.js';
import { ReconciliationReader, transactionView } from './reconciliation-reader.js';

const at = '2026-05-01T10:00:00.000Z';
const bet: WalletBetRequest = {
  command: 'bet',
  transactionId: 11,
  operatorId: 'casino-a',
  playerId: 'p_1',
  roundId: 10,
  providerId: 1,
  gameId: 101,
  currency: 'KRW',
  bonusId: 0,
  requestedAt: at,
  amountMinor: 1_500,
  isBonusBusy: false,
};

/** The dispatcher's own fold of the events (the reader loads a transaction the same way). */
const fold = (events: WalletTxEvent[]) => events.reduce(evolve, initialWalletTxState);
const requested: WalletTxEvent = {
  type: 'WalletRequested',
  data: { transactionId: 11, operatorId: 'casino-a', command: 'bet', request: bet, requestedAt: at },
};

describe('transactionView', () => {
  const win = {
    ...bet,
    command: 'win',
    transactionId: 13,
    amountMinor: 700,
    isRoundFinished: true,
  } as WalletWinRequest;
  const winRequested = {
    ...requested,
    data: { ...requested.data, transactionId: 13, command: 'win', request: win },
  } as WalletTxEvent;

  it('shows a bet as a negative amount in currency units, with no balance until the wallet answered OK', () => {
    const view = transactionView(
      bet,
      fold([requested, { type: 'WalletAttempted', data: { attempt: 1, command: 'bet', at } }]),
      WIN_REDRIVE_DEFAULTS,
    );
    expect(view).toMatchObject({ command: 'bet', currency: 'KRW', amount: -1_500, status: 'pending', attempts: 1 });
    expect([view.balance, view.lastError, view.cancel]).toEqual([null, null, null]);
  });

  it('shows a failed bet with the reason of its last attempt and its cancel, pending then succeeded', () => {
    const failed: WalletTxEvent[] = [
      requested,
      { type: 'WalletAttempted', data: { attempt: 1, command: 'bet', at } },
      {
        type: 'WalletFailed',
        data: { statusCode: 'ERR_NOT_ENOUGH_MONEY', attempt: 1, final: true, command: 'bet', at },
      },
      { type: 'CancelRequested', data: { cancelTransactionId: 12, refTransactionId: 11, at } },
      { type: 'WalletAttempted', data: { attempt: 1, command: 'cancel', at } },
    ];
    const pending = transactionView(bet, fold(failed), WIN_REDRIVE_DEFAULTS);
    expect(pending).toMatchObject({
      status: 'failed',
      balance: null,
      cancel: { transactionId: 12, status: 'pending', attempts: 1 },
    });
    expect(pending.lastError).toContain('ERR_NOT_ENOUGH_MONEY');
    const done = transactionView(
      bet,
      fold([...failed, { type: 'CancelSucceeded', data: { at, balanceMinor: 20_000 } }]),
      WIN_REDRIVE_DEFAULTS,
    );
    expect(done.cancel).toEqual({ transactionId: 12, status: 'succeeded', attempts: 1 });
  });

  it('shows the balance the OK reply carried, and no error once it succeeded after a failed attempt', () => {
    const view = transactionView(
      bet,
      fold([
        requested,
        { type: 'WalletAttempted', data: { attempt: 1, command: 'bet', at } },
        { type: 'WalletFailed', data: { error: 'timeout', attempt: 1, final: false, command: 'bet', at } },
        { type: 'WalletAttempted', data: { attempt: 2, command: 'bet', at } },
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 98_500, command: 'bet', at } },
      ]),
      WIN_REDRIVE_DEFAULTS,
    );
    expect(view).toMatchObject({ status: 'succeeded', attempts: 2, balance: 98_500, lastError: null });
  });

  it("shows a dead-lettered win's next scheduled re-drive by the operator's winRedrive, and none once the schedule is over", () => {
    const letter = (when: string): WalletTxEvent => ({
      type: 'WinDeadLettered',
      data: { attempts: 3, lastError: 'timeout', at: when, reason: 'delivery_failed' },
    });
    const first = [winRequested, { type: 'WalletAttempted', data: { attempt: 1, at } } as WalletTxEvent, letter(at)];
    const schedule = { everySeconds: 60, forSeconds: 150 };
    expect(transactionView(win, fold(first), schedule).nextRedriveAt).toBe('2026-05-01T10:01:00.000Z');
    expect(transactionView(win, fold(first), WIN_REDRIVE_DEFAULTS).nextRedriveAt).toBe('2026-05-01T10:05:00.000Z');
    const redriven = [
      ...first,
      { type: 'WalletAttempted', data: { attempt: 2, at, redrive: true, scheduled: true } } as WalletTxEvent,
      letter('2026-05-01T10:02:00.000Z'),
    ];
    // 10:03 is beyond 150 s after the first dead letter: the schedule is over.
    expect(transactionView(win, fold(redriven), schedule)).toMatchObject({
      status: 'dead_lettered',
      nextRedriveAt: null,
    });
    expect(transactionView(bet, fold([requested]), schedule).nextRedriveAt).toBeNull();
  });

  it('shows no error once a dead-lettered win was re-driven and succeeded, and the balance of its OK reply', () => {
    const view = transactionView(
      win,
      fold([
        winRequested,
        { type: 'WalletAttempted', data: { attempt: 1, command: 'win', at } },
        { type: 'WalletFailed', data: { error: 'timeout', attempt: 1, final: true, command: 'win', at } },
        { type: 'WinDeadLettered', data: { attempts: 1, lastError: 'timeout', at } },
        { type: 'WalletAttempted', data: { attempt: 2, command: 'win', at, redrive: true } } as WalletTxEvent,
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 10_700, command: 'win', at } },
      ]),
      WIN_REDRIVE_DEFAULTS,
    );
    expect(view).toMatchObject({ status: 'succeeded', amount: 700, balance: 10_700, lastError: null });
  });

  it('shows no balance while the transaction is not succeeded, though an earlier OK reply carried one', () => {
    const view = transactionView(
      bet,
      fold([
        requested,
        { type: 'WalletAttempted', data: { attempt: 1, command: 'bet', at } },
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 98_500, command: 'bet', at } },
        { type: 'WalletAttempted', data: { attempt: 2, command: 'bet', at } },
      ]),
      WIN_REDRIVE_DEFAULTS,
    );
    expect(view).toMatchObject({ status: 'pending', balance: null });
  });

  it('shows amounts in currency units with their sign: a stake lost, a zero change, a negative balance', () => {
    const { amountMinor: _amountMinor, isBonusBusy: _isBonusBusy, ...common } = bet;
    const betwin = (betMinor: number, winMinor: number): WalletBetwinRequest => ({
      ...common,
      command: 'betwin',
      currency: 'EUR',
      betMinor,
      winMinor,
    });
    const settledAt = (balanceMinor: number): WalletTxState =>
      fold([
        requested,
        { type: 'WalletAttempted', data: { attempt: 1, command: 'betwin', at } },
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor, command: 'betwin', at } },
      ]);
    const lost = transactionView(betwin(250, 75), settledAt(-1_205), WIN_REDRIVE_DEFAULTS);
    expect([lost.amount, lost.balance]).toEqual([-1.75, -12.05]);
    const even = transactionView(betwin(250, 250), settledAt(0), WIN_REDRIVE_DEFAULTS);
    // Zero, not minus zero.
    expect(Object.is(even.amount, 0)).toBe(true);
    expect(Object.is(even.balance, 0)).toBe(true);
    const won = transactionView(betwin(250, 1_000), settledAt(1_205), WIN_REDRIVE_DEFAULTS);
    expect([won.amount, won.balance]).toEqual([7.5, 12.05]);
  });
});

describe('ReconciliationReader over the log and its read model', () => {
  const ROW_BOUND = 4;
  let store: SqliteEventStore;
  let readModel: SqliteReconciliationReadModel;
  let projection: ReconciliationProjection;
  let reader: ReconciliationReader;
  let nextId = 700_000_000_000;

  async function append(streamId: string, operatorId: string, events: DomainEvent[]): Promise<void> {
    const context = { correlationId: randomUUID(), causationId: randomUUID(), operatorId, occurredAt: at };
    await store.append(
      streamId,
      events.map((event) => eventToAppend(event, context)),
      { expectedRevision: 'any' },
    );
  }

  beforeAll(async () => {
    store = SqliteEventStore.open(':memory:');
    readModel = SqliteReconciliationReadModel.open(':memory:', {
      comparePositions: (x, y) => store.comparePositions(x, y),
    });
    projection = startReconciliationProjection({ store, projection: readModel, retryDelayMs: 10 });
    reader = new ReconciliationReader(
      store,
      () => WIN_REDRIVE_DEFAULTS,
      () => ({ readModel, projection }),
      ROW_BOUND,
    );
  });
  afterAll(async () => {
    await projection.stop();
    readModel.close();
    await store.close();
  });

  describe('round', () => {
    it("lists a free spin's win, which the player's bonus stream names, with the free round", async () => {
      const roundId = ++nextId;
      const transactionId = ++nextId;
      const ids = { operatorId: 'casino-a', playerId: 'p_free', roundId };
      await append(roundStream(roundId), 'casino-a', [
        {
          type: 'RoundStarted',
          data: {
            ...ids,
            sessionToken: 'q3Yx0mVb7m2c1kTzV3dH0rFfQm8uJ6nE9sWc4aLpB2g',
            providerId: 1,
            gameId: 101,
            kind: 'free',
            currency: 'EUR',
            betMinor: 20,
            bonusId: 5,
            rtpProfile: 'standard',
            startedAt: at,
          },
        },
        { type: 'RoundSettled', data: { roundId, outcome: { draws: [] }, winMinor: 300, settledAt: at } },
      ]);
      await append(playerBonusStream('casino-a', 'p_free'), 'casino-a', [
        {
          type: 'FreeSpinSettled',
          data: {
            issueId: 5,
            roundId,
            gameId: 101,
            spinNumber: 1,
            rawWinMinor: 300,
            winMinor: 300,
            totalWinMinor: 300,
            spinsLeft: 9,
            settledAt: at,
            transactionId,
          },
        },
      ]);
      const win: WalletWinRequest = {
        ...ids,
        command: 'win',
        transactionId,
        providerId: 1,
        gameId: 101,
        currency: 'EUR',
        bonusId: 5,
        requestedAt: at,
        amountMinor: 300,
        isRoundFinished: true,
        source: { stream: playerBonusStream('casino-a', 'p_free'), revision: 0, eventId: randomUUID() },
      };
      await append(walletTxStream(transactionId), 'casino-a', [
        {
          type: 'WalletRequested',
          data: { transactionId, operatorId: 'casino-a', command: 'win', request: win, requestedAt: at },
        },
        { type: 'WalletAttempted', data: { attempt: 1, command: 'win', at } },
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 10_300, command: 'win', at } },
      ]);

      const round = await reader.round('casino-a', roundId);
      expect(round).toMatchObject({ kind: 'free', bet: 0.2, win: 3, bonusId: 5, status: 'settled' });
      expect(round?.transactions).toEqual([
        expect.objectContaining({ transactionId, command: 'win', amount: 3, status: 'succeeded', balance: 103 }),
      ]);
      expect(await reader.round('casino-b', roundId)).toBeUndefined();
    });

    it("reads a paid round's own streams only, not the player's bonus stream", async () => {
      const paid = await writePaidRound(store, 'casino-a', 'p_paid', at);
      const readStream = jest.spyOn(store, 'readStream');
      try {
        const round = await reader.round('casino-a', paid.roundId);
        expect(round?.transactions.map((tx) => tx.transactionId)).toEqual([
          paid.betTransactionId,
          paid.winTransactionId,
        ]);
        expect(readStream.mock.calls.map(([streamId]) => streamId)).toEqual([
          roundStream(paid.roundId),
          walletTxStream(paid.betTransactionId),
          walletTxStream(paid.winTransactionId),
        ]);
      } finally {
        readStream.mockRestore();
      }
    });
  });

  describe('transactions', () => {
    it('asks the read model for a page and one row without a time filter, and for up to the row bound with one', async () => {
      const transactionRows = jest.spyOn(readModel, 'transactionRows');
      try {
        await reader.transactions({ operatorId: 'casino-a', limit: 2 });
        await reader.transactions({ operatorId: 'casino-a', limit: 2, playerId: 'p_paid', status: 'succeeded' });
        await reader.transactions({ operatorId: 'casino-a', limit: 2, from: at });
        await reader.transactions({ operatorId: 'casino-a', limit: 2, to: '2026-06-01T00:00:00.000Z' });
        await reader.transactions({ operatorId: 'casino-a', limit: 10, from: at });
        expect(transactionRows.mock.calls.map(([query]) => query.maxRows)).toEqual([
          3,
          3,
          ROW_BOUND + 1,
          ROW_BOUND + 1,
          11,
        ]);
      } finally {
        transactionRows.mockRestore();
      }
    });
  });

  describe('deadLetters', () => {
    let unreadable: number;
    let later: PaidRound;

    beforeAll(async () => {
      // A win of casino-a's whose stream holds an event this code cannot read, then its dead letter:
      // the read model lists it under casino-a, but it is read as written and shows no letter of it.
      unreadable = ++nextId;
      const win: WalletWinRequest = {
        command: 'win',
        transactionId: unreadable,
        operatorId: 'casino-a',
        playerId: 'p_unreadable',
        roundId: ++nextId,
        providerId: 1,
        gameId: 101,
        currency: 'EUR',
        bonusId: 0,
        requestedAt: at,
        amountMinor: 100,
        isRoundFinished: true,
      };
      await append(walletTxStream(unreadable), 'casino-a', [
        {
          type: 'WalletRequested',
          data: { transactionId: unreadable, operatorId: 'casino-a', command: 'win', request: win, requestedAt: at },
        },
      ]);
      await store.append(walletTxStream(unreadable), [{ type: 'WalletAttempted', data: { attempt: 'first' } }], {
        expectedRevision: 0,
      });
      await append(walletTxStream(unreadable), 'casino-a', [
        { type: 'WinDeadLettered', data: { attempts: 1, lastError: 'timeout', at } },
      ]);
      later = await writePaidRound(store, 'casino-a', 'p_later', at);
    });

    const idsOf = (items: { transaction: { transactionId: number } }[]) =>
      items.map((item) => item.transaction.transactionId);

    it('ends a page short of letters with a cursor when more rows follow, and the next page goes on after it', async () => {
      const all = await reader.deadLetters({ operatorId: 'casino-a', limit: 50 });
      expect(idsOf(all.items)).toContain(later.winTransactionId);
      // One letter at a time: the unreadable row's page is empty, and its cursor leads on to the later letters.
      let afterSeq: number | undefined;
      const seen: number[] = [];
      let pages = 0;
      do {
        const page = await reader.deadLetters({
          operatorId: 'casino-a',
          limit: 1,
          ...(afterSeq === undefined ? {} : { afterSeq }),
        });
        expect(page.items.length).toBeLessThanOrEqual(1);
        seen.push(...idsOf(page.items));
        afterSeq = page.lastSeq;
        pages += 1;
      } while (afterSeq !== undefined && pages < 20);
      expect(seen).toEqual(idsOf(all.items));
      expect(seen).not.toContain(unreadable);
      // One page more than letters: the unreadable row's, empty.
      expect(pages).toBe(all.items.length + 1);
    });

    it('ends without a cursor when no more rows were read, though the page is short', async () => {
      const all = await reader.deadLetters({ operatorId: 'casino-a', limit: 50 });
      expect(all.lastSeq).toBeUndefined();
      // A limit of every row: the page holds one letter less (the unreadable row's), and nothing follows.
      const rows = all.items.length + 1;
      const page = await reader.deadLetters({ operatorId: 'casino-a', limit: rows });
      expect([idsOf(page.items), page.lastSeq]).toEqual([idsOf(all.items), undefined]);
    });
  });
});
