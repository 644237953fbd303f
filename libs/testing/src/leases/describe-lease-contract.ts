import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FencedOutError, type Lease, type LeasesAndFencedCheckpoints, type Position } from '@reelstream/platform-ports';

/** One back end the lease contract runs against. */
export interface LeaseStoreUnderTest {
  /** How the test output names it: 'sqlite', 'esdb'. */
  adapter: string;
  /** A NEW client/connection on the same back end each call: one per replica. */
  open(): Promise<LeasesAndFencedCheckpoints>;
  /** Ascending positions of this back end: `position(1) < position(2) < …`. */
  position(n: number): Position;
  /** Closes what `open` opened and removes what the suite created. */
  dispose(): Promise<void>;
}

const TTL_MS = 300;
/** The lease a case needs granted, or the case fails here. */
const granted = (lease: Lease | undefined): Lease => {
  if (!lease) throw new Error('expected the lease to be granted');
  return lease;
};
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What `LeaseStore` and `FencedCheckpointStore` promise (docs/adr/0005-leases-and-fencing.md), on
 * two connections playing two replicas. Each case uses its own random name, so the suite is safe
 * on a shared, long-lived server.
 */
// Long because: one case per promise of the two ports, all on the two connections the suite opens (closures).
export function describeLeaseContract(make: () => Promise<LeaseStoreUnderTest>, adapter = 'adapter'): void {
  // Long because: the cases share the back end and its two connections, opened once for the suite.
  describe(`Lease contract [${adapter}]`, () => {
    let backend: LeaseStoreUnderTest | undefined;
    let a: LeasesAndFencedCheckpoints;
    let b: LeasesAndFencedCheckpoints;

    beforeAll(async () => {
      backend = await make();
      expect(backend.adapter).toBe(adapter);
      a = await backend.open();
      b = await backend.open();
    }, 120_000);
    afterAll(() => backend?.dispose(), 60_000);

    const at = (n: number) => (backend as LeaseStoreUnderTest).position(n);
    const fresh = () => `lease-contract-${randomUUID()}`;

    it('grants a free name to one owner and refuses it to another while it lasts', async () => {
      const name = fresh();
      const [first, second] = await Promise.all([
        a.acquire(name, 'replica-a', 5_000),
        b.acquire(name, 'replica-b', 5_000),
      ]);
      expect([first, second].filter((lease) => lease !== undefined)).toHaveLength(1);
      const holder = first ?? second;
      expect(holder).toMatchObject({ name, token: 1 });
      expect(await b.acquire(name, holder?.owner === 'replica-a' ? 'replica-b' : 'replica-a', 5_000)).toBeUndefined();
    });

    it('lets another owner take an expired lease, with a larger token; the old owner can renew it no more', async () => {
      const name = fresh();
      const old = granted(await a.acquire(name, 'replica-a', TTL_MS));
      expect(old).toBeDefined();
      expect(await b.acquire(name, 'replica-b', TTL_MS)).toBeUndefined();
      await sleep(TTL_MS + 100);
      const taken = granted(await b.acquire(name, 'replica-b', 5_000));
      expect(taken.token).toBeGreaterThan(old.token);
      expect(await a.renew(old, 5_000)).toBeUndefined();
      expect(await b.renew(taken, 5_000)).toMatchObject({ owner: 'replica-b', token: taken.token });
    });

    it('renews for its owner only: a non-owner presenting the token is refused', async () => {
      const name = fresh();
      const lease = granted(await a.acquire(name, 'replica-a', TTL_MS));
      expect(await b.renew({ ...lease, owner: 'replica-b' }, 5_000)).toBeUndefined();
      const renewed = await a.renew(lease, 5_000);
      expect(renewed?.expiresAt).toBeGreaterThan(lease.expiresAt);
      await sleep(TTL_MS + 100);
      // Renewed past the first ttl: still held.
      expect(await b.acquire(name, 'replica-b', 5_000)).toBeUndefined();
    });

    it("fences a stale owner's checkpoint writes: neither back nor forward", async () => {
      const name = fresh();
      const stale = granted(await a.acquire(name, 'replica-a', TTL_MS));
      await a.store(name, at(10), stale.token);
      expect(await b.load(name)).toBe(at(10));
      await sleep(TTL_MS + 100);
      const current = granted(await b.acquire(name, 'replica-b', 5_000));
      await b.store(name, at(20), current.token);

      await expect(a.store(name, at(30), stale.token)).rejects.toBeInstanceOf(FencedOutError);
      await expect(a.store(name, at(15), stale.token)).rejects.toBeInstanceOf(FencedOutError);
      await expect(a.store(name, at(5), stale.token)).rejects.toBeInstanceOf(FencedOutError);
      expect(await a.load(name)).toBe(at(20));

      // The current owner still moves it forwards only.
      await b.store(name, at(18), current.token);
      expect(await a.load(name)).toBe(at(20));
      await b.store(name, at(25), current.token);
      expect(await a.load(name)).toBe(at(25));
    });

    it('fences a write under a token no lease of the name was granted', async () => {
      await expect(a.store(fresh(), at(1), 1)).rejects.toBeInstanceOf(FencedOutError);
    });

    it('a restarted process under the same instance id fences its earlier life', async () => {
      const name = fresh();
      const before = granted(await a.acquire(name, 'replica-a', 5_000));
      const after = granted(await b.acquire(name, 'replica-a', 5_000));
      expect(after.token).toBe(before.token + 1);
      await expect(a.store(name, at(3), before.token)).rejects.toBeInstanceOf(FencedOutError);
      expect(await a.renew(before, 5_000)).toBeUndefined();
    });

    it('release frees the name at once and keeps the checkpoint; a released lease writes no more', async () => {
      const name = fresh();
      const lease = granted(await a.acquire(name, 'replica-a', 5_000));
      await a.store(name, at(7), lease.token);
      await a.release(lease);
      expect(await a.renew(lease, 5_000)).toBeUndefined();
      const next = granted(await b.acquire(name, 'replica-b', 5_000));
      expect(next.token).toBe(lease.token + 1);
      expect(await b.load(name)).toBe(at(7));
      await expect(a.store(name, at(8), lease.token)).rejects.toBeInstanceOf(FencedOutError);
      // Releasing a lease already lost changes nothing.
      await a.release(lease);
      expect(await a.acquire(name, 'replica-a', 5_000)).toBeUndefined();
    });
  });
}
