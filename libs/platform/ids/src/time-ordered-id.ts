import type { IdGenerator } from '@reelstream/platform-ports';

/**
 * 53-bit time-ordered ids: safe as JSON numbers and JavaScript numbers (≤ 2^53 − 1).
 *
 *   | 41 bits: ms since 2025-01-01 UTC | 5 bits: worker | 7 bits: sequence |
 *
 * 41 bits of milliseconds last until 2094; 32 workers may draw concurrently without
 * coordination; each worker draws up to 128 ids per millisecond and waits for the next
 * millisecond beyond that, so ids never repeat and only grow within a worker.
 */
export const ID_EPOCH_MS = Date.UTC(2025, 0, 1);
const WORKER_BITS = 5;
const SEQUENCE_BITS = 7;
export const MAX_WORKER_ID = 2 ** WORKER_BITS - 1;
const MAX_SEQUENCE = 2 ** SEQUENCE_BITS - 1;
const TIME_SHIFT = 2 ** (WORKER_BITS + SEQUENCE_BITS);
const WORKER_SHIFT = 2 ** SEQUENCE_BITS;
const MAX_TIME = 2 ** (53 - WORKER_BITS - SEQUENCE_BITS) - 1;

export class TimeOrderedIdGenerator implements IdGenerator {
  private lastTime = -1;
  private sequence = 0;

  constructor(
    readonly workerId: number,
    private readonly nowMs: () => number = Date.now,
  ) {
    if (!Number.isInteger(workerId) || workerId < 0 || workerId > MAX_WORKER_ID) {
      throw new RangeError(`worker id must be an integer 0–${MAX_WORKER_ID}, got ${workerId}`);
    }
  }

  next(): number {
    // A clock that steps back is held at the last time used, so ids still only grow.
    let time = Math.max(this.elapsed(), this.lastTime);
    if (time === this.lastTime) {
      if (this.sequence === MAX_SEQUENCE) {
        while (time <= this.lastTime) time = this.elapsed();
        this.sequence = 0;
      } else {
        this.sequence += 1;
      }
    } else {
      this.sequence = 0;
    }
    if (time > MAX_TIME) throw new RangeError('the 41-bit id clock is exhausted (year 2094)');
    this.lastTime = time;
    return time * TIME_SHIFT + this.workerId * WORKER_SHIFT + this.sequence;
  }

  private elapsed(): number {
    const elapsed = this.nowMs() - ID_EPOCH_MS;
    if (elapsed < 0) throw new RangeError('the clock is before the id epoch 2025-01-01');
    return elapsed;
  }
}

export interface DecodedId {
  /** When the id was drawn. */
  time: Date;
  workerId: number;
  sequence: number;
}

export function decodeId(id: number): DecodedId {
  if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not a 53-bit id: ${id}`);
  const time = Math.floor(id / TIME_SHIFT);
  const rest = id - time * TIME_SHIFT;
  return {
    time: new Date(ID_EPOCH_MS + time),
    workerId: Math.floor(rest / WORKER_SHIFT),
    sequence: rest % WORKER_SHIFT,
  };
}
