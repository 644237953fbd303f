import { NO_STREAM, jsonEvent, type EventStoreDBClient } from '@eventstore/db-client';
import type { CheckpointStore, Position } from '@reelstream/platform-ports';
import { z } from 'zod';
import { isWrongExpectedVersion } from './errors.js';
import { comparePositions, decodePosition } from './position.js';
import { readLastForCompareAndSet, StreamCap } from './bookkeeping-streams.js';
import { checkpointStreamId } from './stream-names.js';

/** Only the last few checkpoints are worth keeping; the server may scavenge older ones. */
const CHECKPOINT_STREAM_MAX_COUNT = 4;
const CHECKPOINT_EVENT_TYPE = 'CheckpointStored';
const MAX_CONFLICT_RETRIES = 10;

const checkpointData = z.object({ position: z.string() });

/** A checkpoint only ever moves forwards: storing an older or equal position changes nothing. */
export function checkpointAdvances(current: Position | undefined, next: Position): boolean {
  return current === undefined || comparePositions(next, current) > 0;
}

interface StoredCheckpoint {
  position: Position;
  revision: bigint;
}

/**
 * Checkpoints in EventStoreDB itself: one stream per name (`checkpoint-{name}`), capped by `$maxCount`.
 * `store` is a compare-and-set on the stream revision, so two writers cannot move a checkpoint backwards.
 *
 * What a store costs: one append. The last checkpoint written or read is remembered per name, so the
 * compare-and-set uses the remembered revision instead of reading the stream first; only a conflict
 * (another writer) costs a read, and a position that does not advance costs nothing. The runner's
 * flush interval (`checkpointIntervalMs`) bounds how often a moving subscriber appends.
 */
export class EsdbCheckpointStore implements CheckpointStore {
  private readonly last = new Map<string, StoredCheckpoint | null>();
  private readonly cap: StreamCap;

  constructor(private readonly client: EventStoreDBClient) {
    this.cap = new StreamCap(client, CHECKPOINT_STREAM_MAX_COUNT);
  }

  async load(name: string): Promise<Position | undefined> {
    const current = await this.readLast(name);
    this.last.set(name, current ?? null);
    return current?.position;
  }

  async store(name: string, position: Position): Promise<void> {
    decodePosition(position);
    const streamId = checkpointStreamId(name);
    for (let attempt = 1; ; attempt++) {
      const known = this.last.get(name);
      const current = known === undefined ? await this.readLast(name) : (known ?? undefined);
      if (!checkpointAdvances(current?.position, position)) return;
      if (!current) await this.cap.apply(streamId);
      try {
        const result = await this.client.appendToStream(
          streamId,
          jsonEvent({ type: CHECKPOINT_EVENT_TYPE, data: { position } }),
          {
            expectedRevision: current ? current.revision : NO_STREAM,
          },
        );
        this.last.set(name, { position, revision: result.nextExpectedRevision });
        return;
      } catch (error) {
        // Another writer moved the checkpoint meanwhile: forget what we knew, read it again and decide again.
        this.last.delete(name);
        if (!isWrongExpectedVersion(error) || attempt >= MAX_CONFLICT_RETRIES) throw error;
      }
    }
  }

  private async readLast(name: string): Promise<StoredCheckpoint | undefined> {
    const last = await readLastForCompareAndSet(this.client, checkpointStreamId(name));
    if (!last) return undefined;
    const data = checkpointData.parse(last.data);
    decodePosition(data.position);
    return { position: data.position, revision: last.revision };
  }
}
