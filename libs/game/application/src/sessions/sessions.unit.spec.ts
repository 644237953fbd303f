import { describe, expect, it } from '@jest/globals';
import { BalanceBook } from './balance-book.js';
import { SpinLocks } from './spin-locks.js';

describe('one spin at a time per session', () => {
  it('refuses a second spin while the first runs, lets other sessions spin, and frees the session after a failure', async () => {
    const locks = new SpinLocks();
    let release!: () => void;
    const first = locks.withLock('token-a', () => new Promise<string>((resolve) => (release = () => resolve('first'))));
    await expect(locks.withLock('token-a', async () => 'second')).rejects.toMatchObject({ code: 'SPIN_IN_PROGRESS' });
    await expect(locks.withLock('token-b', async () => 'other')).resolves.toBe('other');
    release();
    await expect(first).resolves.toBe('first');
    await expect(locks.withLock('token-a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.withLock('token-a', async () => 'again')).resolves.toBe('again');
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
