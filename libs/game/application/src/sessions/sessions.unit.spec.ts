import { afterAll, describe, expect, it } from '@jest/globals';
import { SqliteEventStore, SqliteLeaseStore } from '@reelstream/platform-eventstore-sqlite';
import { walletTxStream } from '@reelstream/contracts';
import type { LeaseStore } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { BalanceBook } from './balance-book.js';
import { SpinClaims, spinClaimName } from './spin-claims.js';
import { walletRepliesIn } from './wallet-replies.js';

describe('one spin at a time per session, across replicas', () => {
  const store = SqliteEventStore.open(':memory:');
  afterAll(() => store.close());
  const leases = new SqliteLeaseStore(store.database);
  const replicaA = new SpinClaims({ leases, instanceId: 'game-a', ttlMs: 60_000 });
  const replicaB = new SpinClaims({ leases, instanceId: 'game-b', ttlMs: 60_000 });
  const session = (token: string, operatorId = 'casino') => ({ operatorId, token });

  it('refuses a second spin while the first runs, on either replica; lets other sessions spin; frees the session after a failure', async () => {
    let release!: () => void;
    const first = replicaA.withLock(
      session('token-a'),
      () => new Promise<string>((resolve) => (release = () => resolve('first'))),
    );
    await new Promise((resolve) => setImmediate(resolve));
    await expect(replicaB.withLock(session('token-a'), async () => 'second')).rejects.toMatchObject({
      code: 'SPIN_IN_PROGRESS',
    });
    await expect(replicaA.withLock(session('token-a'), async () => 'second')).rejects.toMatchObject({
      code: 'SPIN_IN_PROGRESS',
    });
    await expect(replicaB.withLock(session('token-b'), async () => 'other')).resolves.toBe('other');
    // The same token under another operator is another session.
    await expect(replicaB.withLock(session('token-a', 'casino-2'), async () => 'other operator')).resolves.toBe(
      'other operator',
    );
    release();
    await expect(first).resolves.toBe('first');
    await expect(replicaB.withLock(session('token-a'), async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(replicaA.withLock(session('token-a'), async () => 'again')).resolves.toBe('again');
  });

  it('lets the next spin take over a claim a crashed replica left, once it lapsed', async () => {
    // A replica that died mid-spin: its claim was never released.
    const crashed = await leases.acquire(spinClaimName(session('token-c')), 'game-dead/spin-1', 150);
    expect(crashed).toBeDefined();
    await expect(replicaA.withLock(session('token-c'), async () => 'blocked')).rejects.toMatchObject({
      code: 'SPIN_IN_PROGRESS',
    });
    // Refused until the claim lapses, then taken.
    await expect(
      eventually(() => replicaA.withLock(session('token-c'), async () => 'taken over'), 5_000),
    ).resolves.toBe('taken over');
  });

  it('keeps the claim of a spin slower than the ttl: its replica renews it while the spin runs', async () => {
    // The claim's expiries as granted and renewed: the spin outlives the first one.
    const expiries: number[] = [];
    const counted: LeaseStore = {
      acquire: async (...args) => {
        const lease = await leases.acquire(...args);
        if (lease) expiries.push(lease.expiresAt);
        return lease;
      },
      renew: async (...args) => {
        const lease = await leases.renew(...args);
        if (lease) expiries.push(lease.expiresAt);
        return lease;
      },
      release: (lease) => leases.release(lease),
    };
    const shortClaims = new SpinClaims({ leases: counted, instanceId: 'game-a', ttlMs: 150 });
    let finish!: () => void;
    const slow = shortClaims.withLock(
      session('token-d'),
      () => new Promise<string>((resolve) => (finish = () => resolve('slow'))),
    );
    await eventually(() => expect(expiries.length).toBeGreaterThan(0));
    const firstExpiry = expiries[0] ?? 0;
    await eventually(() => {
      expect(Date.now()).toBeGreaterThan(firstExpiry + 50);
      expect(Math.max(...expiries)).toBeGreaterThan(Date.now());
    });
    await expect(replicaB.withLock(session('token-d'), async () => 'second')).rejects.toMatchObject({
      code: 'SPIN_IN_PROGRESS',
    });
    finish();
    await expect(slow).resolves.toBe('slow');
    await expect(replicaB.withLock(session('token-d'), async () => 'next')).resolves.toBe('next');
  });

  it('names the claim by operator and token, escaped like a stream id', () => {
    expect(spinClaimName({ operatorId: 'acme-casino', token: 'tok' })).toBe('spinClaim-acme%2Dcasino-tok');
  });
});

describe('the balance the page shows: only one the wallet confirmed', () => {
  const at = '2026-05-01T10:00:00.000Z';
  const opened: SqliteEventStore[] = [];
  afterAll(() => Promise.all(opened.map((store) => store.close())));
  const book = (capacity?: number) => {
    const store = SqliteEventStore.open(':memory:');
    opened.push(store);
    return { store, book: new BalanceBook(walletRepliesIn(store), 1, { capacity }) };
  };
  /** What the dispatcher records when the operator answers a transaction (the rest of its stream does not matter here). */
  const answer = (store: SqliteEventStore, transactionId: number, balanceMinor: number) =>
    store.append(
      walletTxStream(transactionId),
      [{ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor, at } }],
      { expectedRevision: 'any' },
    );
  const giveUp = (store: SqliteEventStore, transactionId: number) =>
    store.append(
      walletTxStream(transactionId),
      [
        { type: 'WalletFailed', data: { error: 'timeout', attempt: 3, final: true, at } },
        { type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at, reason: 'delivery_failed' } },
      ],
      { expectedRevision: 'any' },
    );

  it('is unknown before any answer; a sent win is pending, never added, until its answer is recorded', async () => {
    const { store, book: balances } = book();
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: undefined, pendingWinMinor: 0 });
    balances.answered('op', 'p1', 'EUR', 1, 9_900);
    balances.winSent('op', 'p1', 'EUR', 2, 250);
    balances.winSent('op', 'p1', 'EUR', 3, 0);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 9_900, pendingWinMinor: 250 });
    await answer(store, 1, 9_900);
    // The wallet answers the win with its own balance (here another deposit came in meanwhile): that one is shown.
    await answer(store, 2, 20_150);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 20_150, pendingWinMinor: 0 });
    // Another operator's player of the same id, another currency: other balances.
    expect(await balances.shown('op-2', 'p1', 'EUR')).toEqual({ balanceMinor: undefined, pendingWinMinor: 0 });
    expect(balances.peek('op', 'p1', 'KRW')).toEqual({ balanceMinor: undefined, pendingWinMinor: 0 });
  });

  it('reads a pending win again from where its last read ended, until its answer or its dead letter', async () => {
    const { store } = book();
    let reads: (number | undefined)[] = [];
    const watched = Object.assign(Object.create(store) as SqliteEventStore, {
      readStream: (streamId: string, options?: { fromRevision?: number }) => {
        reads.push(options?.fromRevision);
        return store.readStream(streamId, options);
      },
    });
    const watchedBook = new BalanceBook(walletRepliesIn(watched), 1);
    watchedBook.answered('op', 'p1', 'EUR', 1, 9_900);
    watchedBook.winSent('op', 'p1', 'EUR', 2, 250);
    // Sent, not answered: the request and an attempt are in its stream.
    await store.append(
      walletTxStream(2),
      [
        { type: 'WalletRequested', data: {} },
        { type: 'WalletAttempted', data: {} },
      ],
      { expectedRevision: 'no_stream' },
    );
    expect(await watchedBook.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 9_900, pendingWinMinor: 250 });
    expect(await watchedBook.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 9_900, pendingWinMinor: 250 });
    expect(reads).toEqual([undefined, 2]);
    reads = [];
    await answer(store, 2, 10_150);
    expect(await watchedBook.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 10_150, pendingWinMinor: 0 });
    expect(reads[0]).toBe(2);
    // Read once while pending, then dead-lettered: the second read (from where the first ended) stops showing it.
    watchedBook.winSent('op', 'p1', 'EUR', 3, 40);
    await store.append(walletTxStream(3), [{ type: 'WalletRequested', data: {} }], { expectedRevision: 'no_stream' });
    expect(await watchedBook.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 10_150, pendingWinMinor: 40 });
    reads = [];
    await giveUp(store, 3);
    expect(await watchedBook.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 10_150, pendingWinMinor: 0 });
    expect(reads).toEqual([1]);
  });

  it('keeps the later answer in the log order when a win is answered around the next bet', async () => {
    const { store, book: balances } = book();
    // Win 2 answered before bet 3: bet 3's answer includes it and is the last one.
    balances.answered('op', 'p1', 'EUR', 1, 1_000);
    balances.winSent('op', 'p1', 'EUR', 2, 500);
    await answer(store, 1, 1_000);
    await answer(store, 2, 1_500);
    await answer(store, 3, 1_400);
    balances.answered('op', 'p1', 'EUR', 3, 1_400);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 1_400, pendingWinMinor: 0 });

    // Win 4 answered after bet 5, and looked up only then: its answer is the last one.
    balances.winSent('op', 'p1', 'EUR', 4, 700);
    await answer(store, 5, 1_300);
    balances.answered('op', 'p1', 'EUR', 5, 1_300);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 1_300, pendingWinMinor: 700 });
    await answer(store, 4, 2_000);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 2_000, pendingWinMinor: 0 });

    // Win 6's answer read from the log first, then bet 7's answer heard late over the bus, though it was older.
    balances.winSent('op', 'p1', 'EUR', 6, 100);
    await answer(store, 7, 1_900);
    await answer(store, 6, 2_000);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 2_000, pendingWinMinor: 0 });
    balances.answered('op', 'p1', 'EUR', 7, 1_900);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 2_000, pendingWinMinor: 0 });
  });

  it('orders a late answer (the resolver’s, to a bet answered long ago) by the log: an older one does not replace the shown balance', async () => {
    const { store, book: balances } = book();
    await answer(store, 1, 900);
    await answer(store, 2, 1_000);
    balances.answered('op', 'p1', 'EUR', 2, 1_000);
    balances.answered('op', 'p1', 'EUR', 1, 900, true);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 1_000, pendingWinMinor: 0 });
    // A late answer that is the newer one in the log is shown.
    await answer(store, 3, 1_100);
    balances.answered('op', 'p1', 'EUR', 3, 1_100, true);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 1_100, pendingWinMinor: 0 });
  });

  it('stops showing a win pending once it is dead-lettered, and does not add it', async () => {
    const { store, book: balances } = book();
    balances.answered('op', 'p1', 'EUR', 1, 1_000);
    balances.winSent('op', 'p1', 'EUR', 2, 500);
    await giveUp(store, 2);
    expect(await balances.shown('op', 'p1', 'EUR')).toEqual({ balanceMinor: 1_000, pendingWinMinor: 0 });
  });

  it('keeps demo play money per session and refuses a bet it does not cover', () => {
    const { book: balances } = book();
    expect(balances.demoBalance('t1', 'EUR')).toBe(100);
    expect(balances.settleDemo('t1', 'EUR', 60, 0)).toBe(40);
    expect(balances.settleDemo('t1', 'EUR', 60, 0)).toBeUndefined();
    expect(balances.demoBalance('t1', 'EUR')).toBe(40);
    expect(balances.demoBalance('t2', 'KRW')).toBe(1);
  });

  it('forgets the oldest entries beyond its capacity', () => {
    const { book: balances } = book(2);
    balances.answered('op', 'p1', 'EUR', 1, 1);
    balances.answered('op', 'p2', 'EUR', 2, 2);
    balances.answered('op', 'p3', 'EUR', 3, 3);
    expect(['p1', 'p2', 'p3'].map((player) => balances.peek('op', player, 'EUR').balanceMinor)).toEqual([
      undefined,
      2,
      3,
    ]);
  });
});
