import { afterAll, describe, expect, it } from '@jest/globals';
import { SqliteEventStore, SqliteLeaseStore } from '@reelstream/eventstore-sqlite';
import { BalanceBook } from './balance-book.js';
import { SpinClaims, spinClaimName } from './spin-claims.js';

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
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(replicaA.withLock(session('token-c'), async () => 'taken over')).resolves.toBe('taken over');
  });

  it('keeps the claim of a spin slower than the ttl: its replica renews it while the spin runs', async () => {
    const shortClaims = new SpinClaims({ leases, instanceId: 'game-a', ttlMs: 150 });
    let finish!: () => void;
    const slow = shortClaims.withLock(
      session('token-d'),
      () => new Promise<string>((resolve) => (finish = () => resolve('slow'))),
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
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

describe('the balance the page shows', () => {
  it('is unknown until the wallet reports one, then follows the wins sent', () => {
    const book = new BalanceBook(1_000);
    expect(book.lastKnown('op', 'p1', 'EUR')).toBeUndefined();
    expect(book.credit('op', 'p1', 'EUR', 500)).toBeUndefined();
    book.report('op', 'p1', 'EUR', 9_900);
    expect(book.credit('op', 'p1', 'EUR', 250)).toBe(10_150);
    expect(book.lastKnown('op', 'p1', 'KRW')).toBeUndefined();
  });

  it('keeps demo play money per session and refuses a bet it does not cover', () => {
    const book = new BalanceBook(1);
    expect(book.demoBalance('t1', 'EUR')).toBe(100);
    expect(book.settleDemo('t1', 'EUR', 60, 0)).toBe(40);
    expect(book.settleDemo('t1', 'EUR', 60, 0)).toBeUndefined();
    expect(book.demoBalance('t1', 'EUR')).toBe(40);
    expect(book.demoBalance('t2', 'KRW')).toBe(1);
  });

  it('forgets the oldest entries beyond its capacity', () => {
    const book = new BalanceBook(1, 2);
    book.report('op', 'p1', 'EUR', 1);
    book.report('op', 'p2', 'EUR', 2);
    book.report('op', 'p3', 'EUR', 3);
    expect([
      book.lastKnown('op', 'p1', 'EUR'),
      book.lastKnown('op', 'p2', 'EUR'),
      book.lastKnown('op', 'p3', 'EUR'),
    ]).toEqual([undefined, 2, 3]);
  });
});
