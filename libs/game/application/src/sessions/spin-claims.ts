/**
 * One spin at a time per session, across every game-server replica: a double click, or a second
 * tab, must not start a second round while the first waits for the wallet, whichever replica each
 * request reaches. Each spin claims `spinClaim-{operatorId}-{token}` in the lease store (one
 * compare-and-set in the event store's back end: a row of the SQLite file every replica shares,
 * or a `lease-spinClaim-…` stream appended with its expected revision on EventStoreDB). A second
 * spin while the claim stands is refused SPIN_IN_PROGRESS, never queued, so a player is never
 * charged twice for one click. While the spin runs, its replica renews the claim every third of
 * `ttlMs`, so a spin slower than `ttlMs` (a wallet slow to answer a bet, a starved machine) keeps
 * its session: the claim lapses only when its replica stops renewing it. It is released when the
 * spin ends; one left by a replica that crashed mid-spin expires after `ttlMs`, and the next spin
 * takes it over then.
 */
import { randomUUID } from 'node:crypto';
import { encodeStreamComponent, RefusedError } from '@reelstream/contracts';
import type { Lease, LeaseStore } from '@reelstream/platform-ports';

export interface SpinClaimKey {
  readonly operatorId: string;
  readonly token: string;
}

/** The claim's name: the session token belongs to its operator. */
export function spinClaimName({ operatorId, token }: SpinClaimKey): string {
  return `spinClaim-${encodeStreamComponent(operatorId)}-${encodeStreamComponent(token)}`;
}

export interface SpinClaimsOptions {
  leases: LeaseStore;
  /** This replica's instance id: each spin's claim is owned by it plus a per-spin id. */
  instanceId: string;
  /**
   * How long a claim left by a crashed replica blocks its session. Longer than any spin may take
   * (the game-server passes ROUND_RESOLVE_AFTER_MS: a spin waiting past it has given up).
   */
  ttlMs: number;
  /** A renewal or release that failed: the claim then expires after `ttlMs`. */
  onReleaseError?: (error: unknown) => void;
}

export class SpinClaims {
  constructor(private readonly options: SpinClaimsOptions) {}

  async withLock<T>(key: SpinClaimKey, work: () => Promise<T>): Promise<T> {
    const { leases, instanceId, ttlMs } = this.options;
    // A fresh owner per spin: two spins on one replica are as exclusive as on two.
    const claim = await leases.acquire(spinClaimName(key), `${instanceId}/${randomUUID()}`, ttlMs);
    if (!claim) throw new RefusedError('SPIN_IN_PROGRESS');
    let held: Lease = claim;
    let renewing: Promise<unknown> = Promise.resolve();
    const heartbeat = setInterval(
      () => {
        renewing = leases.renew(held, ttlMs).then(
          (renewed) => {
            if (renewed) held = renewed;
            else clearInterval(heartbeat);
          },
          (error: unknown) => this.options.onReleaseError?.(error),
        );
      },
      Math.max(1, Math.floor(ttlMs / 3)),
    );
    heartbeat.unref();
    try {
      return await work();
    } finally {
      clearInterval(heartbeat);
      await renewing;
      await leases.release(held).catch((error: unknown) => this.options.onReleaseError?.(error));
    }
  }
}
