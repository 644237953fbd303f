import { ReelstreamError } from '@reelstream/contracts';
import type { Position } from './event-store.js';

/**
 * One replica's hold on a singleton worker. `token` (the fencing token) grows by one with every
 * grant of the name, whoever gets it, so the newest grant always carries the largest token: a
 * write that presents an older token comes from an owner that lost the lease
 * (docs/adr/0005-leases-and-fencing.md).
 */
export interface Lease {
  readonly name: string;
  /** The holder's instance id (`INSTANCE_ID`). */
  readonly owner: string;
  readonly token: number;
  /** Epoch ms (the granting process's clock) after which another owner may take the lease. */
  readonly expiresAt: number;
}

/**
 * Leases by name. Every method is one compare-and-set in the back end: two replicas asking at
 * once never both get the lease.
 */
export interface LeaseStore {
  /**
   * A new lease (with a new, larger token) when the name is free, expired, released or already
   * this owner's (a restarted process under the same instance id fences its earlier life);
   * undefined while another owner holds it.
   */
  acquire(name: string, owner: string, ttlMs: number): Promise<Lease | undefined>;
  /** The lease extended by `ttlMs`, same token; undefined when it was lost (another grant came after it). */
  renew(lease: Lease, ttlMs: number): Promise<Lease | undefined>;
  /** Frees the name at once for the next owner; does nothing when the lease was already lost. */
  release(lease: Lease): Promise<void>;
}

/**
 * Checkpoints written under a lease of the same name. `store` refuses (FencedOutError) a write
 * whose token is older than the newest token granted for the name, whichever way it would move
 * the checkpoint; a current token writes like `CheckpointStore.store` (forwards only).
 */
export interface FencedCheckpointStore {
  load(name: string): Promise<Position | undefined>;
  store(name: string, position: Position, token: number): Promise<void>;
}

/** A write or renewal under a lease that a newer grant replaced. Not retriable: the worker must stop. */
export class FencedOutError extends ReelstreamError {
  override readonly name = 'FencedOutError';
  constructor(
    readonly leaseName: string,
    readonly token: number,
    readonly newestToken: number | undefined,
  ) {
    super(
      'INTERNAL',
      `lease ${leaseName}: token ${token} is fenced out (newest granted: ${newestToken === undefined ? 'none' : newestToken})`,
      { retriable: false },
    );
  }
}

/** Both ports on one back end: the token a lease grants is the one its checkpoint writes are checked against. */
export type LeasesAndFencedCheckpoints = LeaseStore & FencedCheckpointStore;
