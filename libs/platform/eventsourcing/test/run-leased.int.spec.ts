/**
 * runLeased on the real SQLite lease store, two connections playing two replicas on one data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { SqliteEventStore, SqliteLeaseStore } from '@reelstream/platform-eventstore-sqlite';
import { FencedOutError } from '@reelstream/platform-ports';
import { runLeased, type LeaseGuard, type LeasedRunner } from '../src/index.js';

// Long enough that a stalled event loop on a busy machine does not lose a lease by itself.
const TTL_MS = 1_000;
const dir = mkdtempSync(join(tmpdir(), 'run-leased-'));
const stores: SqliteEventStore[] = [];
const runners: LeasedRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

let files = 0;
/** A replica: its own connection to the shared file, and a worker that records when it runs. */
function replicas(count: number, ttlMs = TTL_MS) {
  const path = join(dir, `events-${++files}.db`);
  return Array.from({ length: count }, (_, index) => {
    const store = SqliteEventStore.open(path);
    stores.push(store);
    const leases = new SqliteLeaseStore(store.database);
    const replica = {
      id: `replica-${index}`,
      leases,
      running: false,
      starts: 0,
      guard: undefined as LeaseGuard | undefined,
      runner: undefined as unknown as LeasedRunner,
    };
    replica.runner = runLeased({
      leases,
      name: 'worker',
      owner: replica.id,
      ttlMs,
      start(guard) {
        replica.running = true;
        replica.starts++;
        replica.guard = guard;
        return {
          stop: async () => {
            replica.running = false;
          },
        };
      },
    });
    runners.push(replica.runner);
    return replica;
  });
}

describe('runLeased', () => {
  it('runs the worker on one replica only', async () => {
    const group = replicas(3);
    await until(() => group.some((replica) => replica.running));
    await sleep(TTL_MS * 2);
    expect(group.filter((replica) => replica.running)).toHaveLength(1);
    expect(group.reduce((sum, replica) => sum + replica.starts, 0)).toBe(1);
  });

  it('hands over after the ttl when the holder dies without releasing, and fences the dead one', async () => {
    const [a, b] = replicas(2);
    if (!a || !b) throw new Error('two replicas');
    await until(() => a.running || b.running);
    const [holder, other] = a.running ? [a, b] : [b, a];
    const staleGuard = holder.guard as LeaseGuard;
    await staleGuard.checkpoints.store('worker', '10');

    const killedAt = Date.now();
    await holder.runner.abandon();
    await until(() => other.running);
    // Renewed at most a third of the ttl before the kill: the others wait at least two thirds of it.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual((TTL_MS * 2) / 3 - 20);
    expect(staleGuard.held()).toBe(false);

    const guard = other.guard as LeaseGuard;
    expect(guard.lease.token).toBeGreaterThan(staleGuard.lease.token);
    expect(await guard.checkpoints.load('worker')).toBe('10');
    await guard.checkpoints.store('worker', '20');
    await expect(staleGuard.checkpoints.store('worker', '30')).rejects.toBeInstanceOf(FencedOutError);
    await expect(staleGuard.checkpoints.store('worker', '15')).rejects.toBeInstanceOf(FencedOutError);
    expect(await other.leases.load('worker')).toBe('20');
  });

  it('hands over at once on a clean stop (release)', async () => {
    const ttlMs = 3_000;
    const [a, b] = replicas(2, ttlMs);
    if (!a || !b) throw new Error('two replicas');
    await until(() => a.running || b.running);
    const [holder, other] = a.running ? [a, b] : [b, a];
    await holder.runner.stop();
    const stoppedAt = Date.now();
    await until(() => other.running);
    // The other one asks every ttl/3: well before a killed holder's lease could lapse (2/3 of the ttl).
    expect(Date.now() - stoppedAt).toBeLessThan((ttlMs * 2) / 3);
  });

  it('stops the worker as soon as the lease is taken by another owner', async () => {
    const [a] = replicas(1);
    if (!a) throw new Error('one replica');
    await until(() => a.running);
    // Held and unexpired: refused to another owner.
    expect(await a.leases.acquire('worker', 'replica-x', 60_000)).toBeUndefined();
    // A replica whose clock is past the ttl takes it (as it would from a holder paused past its ttl).
    const grantAfterExpiry = new SqliteLeaseStore((stores[0] as SqliteEventStore).database, {
      now: () => Date.now() + TTL_MS * 10,
    });
    expect(await grantAfterExpiry.acquire('worker', 'replica-x', 60_000)).toBeDefined();
    await until(() => !a.running, TTL_MS * 2);
    expect(a.runner.holding).toBe(false);
  });
});
