import { NO_STREAM, jsonEvent, type EventStoreDBClient } from '@eventstore/db-client';
import type { CheckpointStore, FencedCheckpointStore, Lease, LeaseStore, Position } from '@reelstream/platform-ports';
import { checkpointAdvances } from './checkpoints.js';
import { isWrongExpectedVersion } from './errors.js';
import {
  acquiredState,
  checkpointedState,
  LEASE_EVENT_TYPE,
  leaseOf,
  leaseStateSchema,
  releasedState,
  renewedState,
  type LeaseState,
} from './lease-state.js';
import { decodePosition } from './position.js';
import { readLastForCompareAndSet, StreamCap } from './bookkeeping-streams.js';
import { leaseStreamId } from './stream-names.js';

/** Only the last states matter; the server may scavenge older ones. */
const LEASE_STREAM_MAX_COUNT = 4;

interface Read {
  state: LeaseState | undefined;
  /** Expected revision of the next append. */
  revision: bigint | typeof NO_STREAM;
}

/**
 * Leases and fenced checkpoints in EventStoreDB (docs/adr/0005-leases-and-fencing.md): each name's
 * state is the last event of `lease-{name}`, and every change is an append with the revision it
 * was decided from as expected revision. Two replicas that decide from the same state: one append
 * wins, the other's fails and the other answers from what it reads again.
 *
 * Expiry is judged by the asking replica's clock against the expiry the holder wrote with its own:
 * clock skew between replicas shortens or lengthens a lease by the skew; the token fences writes
 * whatever the clocks say.
 */
export class EsdbLeaseStore implements LeaseStore, FencedCheckpointStore {
  private readonly cap: StreamCap;

  constructor(
    private readonly client: EventStoreDBClient,
    /** Checkpoints of the same name written before leases existed: read while the lease stream holds none. */
    private readonly unfenced: CheckpointStore,
    private readonly now: () => number = Date.now,
  ) {
    this.cap = new StreamCap(client, LEASE_STREAM_MAX_COUNT);
  }

  async acquire(name: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const read = await this.read(name);
    const next = acquiredState(read.state, owner, ttlMs, this.now());
    if (!next) return undefined;
    // Lost the race to another replica's grant: it holds the lease now.
    return (await this.append(name, read, next)) ? leaseOf(name, next) : undefined;
  }

  async renew(lease: Lease, ttlMs: number): Promise<Lease | undefined> {
    for (;;) {
      const read = await this.read(lease.name);
      const next = renewedState(read.state, lease, ttlMs, this.now());
      if (!next) return undefined;
      // A conflict may be this owner's own checkpoint write: decide again from the new state.
      if (await this.append(lease.name, read, next)) return leaseOf(lease.name, next);
    }
  }

  async release(lease: Lease): Promise<void> {
    for (;;) {
      const read = await this.read(lease.name);
      const next = releasedState(read.state, lease);
      if (!next || (await this.append(lease.name, read, next))) return;
    }
  }

  async load(name: string): Promise<Position | undefined> {
    const { state } = await this.read(name);
    return state?.position ?? (await this.unfenced.load(name));
  }

  async store(name: string, position: Position, token: number): Promise<void> {
    decodePosition(position);
    for (;;) {
      const read = await this.read(name);
      const next = checkpointedState(name, read.state, token, position, checkpointAdvances);
      if (!next || (await this.append(name, read, next))) return;
    }
  }

  /** The name's state and the revision to expect; a stream never written is no state. */
  private async read(name: string): Promise<Read> {
    const last = await readLastForCompareAndSet(this.client, leaseStreamId(name));
    if (!last) return { state: undefined, revision: NO_STREAM };
    return { state: leaseStateSchema.parse(last.data), revision: last.revision };
  }

  /** True when appended; false when another writer changed the stream since `read`. */
  private async append(name: string, read: Read, next: LeaseState): Promise<boolean> {
    const streamId = leaseStreamId(name);
    if (read.revision === NO_STREAM) await this.cap.apply(streamId);
    try {
      await this.client.appendToStream(streamId, jsonEvent({ type: LEASE_EVENT_TYPE, data: next }), {
        expectedRevision: read.revision,
      });
      return true;
    } catch (error) {
      if (isWrongExpectedVersion(error)) return false;
      throw error;
    }
  }
}
