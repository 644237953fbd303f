/**
 * The streams the store keeps for its own bookkeeping, a checkpoint's or a lease's: each changed by a
 * compare-and-set on its last event, and only its last few events worth keeping.
 */
import { BACKWARDS, END, type EventStoreDBClient } from '@eventstore/db-client';
import { isAccessDenied, isStreamNotFound } from './errors.js';

/** The last event's data and revision, read from the leader; undefined for a stream never written. */
export async function readLastForCompareAndSet(
  client: EventStoreDBClient,
  streamId: string,
): Promise<{ data: unknown; revision: bigint } | undefined> {
  try {
    for await (const resolved of client.readStream(streamId, {
      direction: BACKWARDS,
      // The compare-and-set is decided from this read: a follower's could be stale.
      requiresLeader: true,
      fromRevision: END,
      maxCount: 1,
    })) {
      const event = resolved.event;
      if (!event) continue;
      return { data: event.data, revision: event.revision };
    }
    return undefined;
  } catch (error) {
    if (isStreamNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * Caps a bookkeeping stream (a checkpoint's, a lease's) by `$maxCount`, once per stream and process:
 * only its last few events matter, and the server may scavenge older ones.
 */
export class StreamCap {
  private readonly capped = new Set<string>();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly maxCount: number,
  ) {}

  async apply(streamId: string): Promise<void> {
    if (this.capped.has(streamId)) return;
    try {
      await this.client.setStreamMetadata(streamId, { maxCount: this.maxCount });
    } catch (error) {
      // Writing stream metadata needs the meta-write right, which the default ACL gives only to
      // $admins. Without it the checkpoint or lease still works; its stream just keeps its history.
      if (!isAccessDenied(error)) throw error;
    }
    this.capped.add(streamId);
  }
}
