/**
 * The expiry timer against a small in-memory index (a real implementation of the read-model
 * port's two expiry queries) and real timers with short delays.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { systemClock } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { ExpiryScheduler, type ExpiryTarget } from '../src/index.js';

class ExpiryIndex {
  readonly active = new Map<number, ExpiryTarget>();
  readonly expired: { issueId: number; at: number }[] = [];
  add(issueId: number, inMs: number): ExpiryTarget {
    const target = {
      operatorId: 'demo',
      playerId: `p${issueId}`,
      issueId,
      expireAt: new Date(Date.now() + inMs).toISOString(),
    };
    this.active.set(issueId, target);
    return target;
  }
  async dueForExpiry(instant: string, limit: number): Promise<ExpiryTarget[]> {
    return [...this.active.values()]
      .filter((t) => Date.parse(t.expireAt) <= Date.parse(instant))
      .sort((a, b) => Date.parse(a.expireAt) - Date.parse(b.expireAt))
      .slice(0, limit);
  }
  /** What the scheduler was told each time it asked for the next expireAt (to arm its timer). */
  readonly nextExpiryAnswers: (string | undefined)[] = [];
  async nextExpiry(): Promise<string | undefined> {
    const next = [...this.active.values()].map((t) => t.expireAt).sort()[0];
    this.nextExpiryAnswers.push(next);
    return next;
  }
  /** What the ledger does: expire, and the projection later drops it from the active index. */
  expire = async (target: ExpiryTarget): Promise<void> => {
    this.expired.push({ issueId: target.issueId, at: Date.now() });
    this.active.delete(target.issueId);
  };
}

let scheduler: ExpiryScheduler | undefined;
afterEach(async () => {
  await scheduler?.stop();
});

describe('ExpiryScheduler', () => {
  it('sweeps on start what expired while it was not running (a restart across expireAt)', async () => {
    const index = new ExpiryIndex();
    index.add(1, -5_000);
    index.add(2, -10);
    scheduler = new ExpiryScheduler({ readModel: index, clock: systemClock, expire: index.expire });
    scheduler.start();
    await eventually(() => expect(index.expired.map((e) => e.issueId).sort()).toEqual([1, 2]), 2_000);
  });

  it('fires at the earliest expireAt, not before, and then arms for the next one', async () => {
    const index = new ExpiryIndex();
    const first = index.add(1, 150);
    const second = index.add(2, 300);
    scheduler = new ExpiryScheduler({ readModel: index, clock: systemClock, expire: index.expire });
    scheduler.start();
    await eventually(() => expect(index.expired).toHaveLength(2), 3_000);
    const [a, b] = index.expired;
    expect(a?.issueId).toBe(1);
    expect(a?.at).toBeGreaterThanOrEqual(Date.parse(first.expireAt));
    expect(a?.at).toBeLessThan(Date.parse(first.expireAt) + 1_000);
    expect(b?.at).toBeGreaterThanOrEqual(Date.parse(second.expireAt));
    expect(b?.at).toBeLessThan(Date.parse(second.expireAt) + 1_000);
  });

  it('a poke with an earlier expiry re-arms a timer set for a later one', async () => {
    const index = new ExpiryIndex();
    const later = index.add(1, 60_000);
    scheduler = new ExpiryScheduler({ readModel: index, clock: systemClock, expire: index.expire });
    scheduler.start();
    // The scheduler itself asked for the next expiry and was told the one a minute away: its timer
    // is armed for that one (polled from a later macrotask, after the sweep's last await).
    await eventually(() => expect(index.nextExpiryAnswers).toEqual([later.expireAt]));
    const soon = index.add(2, 100);
    scheduler.poke(soon.expireAt);
    await eventually(() => expect(index.expired.map((e) => e.issueId)).toEqual([2]), 2_000);
    expect(index.active.has(1)).toBe(true);
  });

  it('retries a failed expiry instead of giving up, and reports the failure', async () => {
    const index = new ExpiryIndex();
    index.add(1, -1);
    const failures: unknown[] = [];
    let calls = 0;
    scheduler = new ExpiryScheduler({
      readModel: index,
      clock: systemClock,
      retryDelayMs: 20,
      expire: async (target) => {
        calls += 1;
        if (calls === 1) throw new Error('store unavailable');
        await index.expire(target);
      },
      onError: (error) => failures.push(error),
    });
    scheduler.start();
    await eventually(() => expect(index.expired.map((e) => e.issueId)).toEqual([1]), 2_000);
    expect(failures).toHaveLength(1);
  });
});
